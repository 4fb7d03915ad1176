import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import AjvOnCfWorker from '../lib/bundling/ajv-on-cfworker';

/** The Ajv stand-in of the Lambda bundles, driven through the MCP SDK's own validator as the bundled SDK drives it. */
describe('the Ajv stand-in of the Lambda bundles', () => {
  const validator = new AjvJsonSchemaValidator(new AjvOnCfWorker() as never);
  const schema = { type: 'object', properties: { count: { type: 'integer', minimum: 0 }, email: { type: 'string', format: 'email' } }, required: ['count'] };

  it('accepts what the schema allows and returns it', () => {
    expect(validator.getValidator(schema)({ count: 2, email: 'a@example.com' })).toEqual({ valid: true, data: { count: 2, email: 'a@example.com' }, errorMessage: undefined });
  });

  it('rejects a missing field, a wrong type and a bad format, saying where', () => {
    const check = validator.getValidator(schema);
    for (const input of [{}, { count: -1 }, { count: 'two' }, { count: 1, email: 'not-an-address' }]) {
      const result = check(input);
      expect(result.valid).toBe(false);
      expect(result.errorMessage).toMatch(/^#/);
    }
  });

  it('reuses a compiled schema by its $id', () => {
    const ajv = new AjvOnCfWorker();
    const compiled = ajv.compile({ $id: 'urn:test', type: 'string' });
    expect(ajv.getSchema('urn:test')).toBe(compiled);
    expect(compiled('x')).toBe(true);
    expect(compiled(1)).toBe(false);
    expect(ajv.errorsText(compiled.errors)).toContain('#');
  });
});
