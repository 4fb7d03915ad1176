import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';

/**
 * What a Lambda bundle gets for `import Ajv from 'ajv'` (LAMBDA_BUNDLING aliases it here): the part of Ajv's API the
 * MCP SDK's validator uses (`compile`, `getSchema`, `errorsText`), on @cfworker/json-schema. The MCP client and server
 * construct an Ajv validator by default and use it only for tool output schemas and elicitation forms; full Ajv with
 * its formats weighs about 130 KB of every bundle that reaches the MCP SDK, this about 20 KB.
 */
interface CompiledValidator {
  (input: unknown): boolean;
  errors: OutputUnit[] | null;
}

export default class AjvOnCfWorker {
  private readonly byId = new Map<string, CompiledValidator>();

  compile(schema: Schema & { $id?: string }): CompiledValidator {
    const validator = new Validator(schema, '2020-12', false);
    const compiled: CompiledValidator = Object.assign(
      (input: unknown) => {
        const result = validator.validate(input);
        compiled.errors = result.valid ? null : result.errors;
        return result.valid;
      },
      { errors: null as OutputUnit[] | null },
    );
    if (typeof schema.$id === 'string') this.byId.set(schema.$id, compiled);
    return compiled;
  }

  getSchema(id: string): CompiledValidator | undefined {
    return this.byId.get(id);
  }

  errorsText(errors: OutputUnit[] | null | undefined): string {
    return errors?.length ? errors.map((unit) => `${unit.instanceLocation}: ${unit.error}`).join('; ') : 'No errors';
  }
}
