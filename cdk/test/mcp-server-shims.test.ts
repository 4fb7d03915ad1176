import { describe, expect, it } from 'vitest';
import * as shims from '../lib/bundling/mcp-server-shims';

/** The MCP server's Node shims as the Lambda bundles take them (LAMBDA_BUNDLING aliases `_shims` there). */
describe('the MCP server shims of the Lambda bundles', () => {
  const validator = new shims.DefaultJsonSchemaValidator();
  const schema = {
    type: 'object',
    properties: { count: { type: 'integer', minimum: 0 }, email: { type: 'string', format: 'email' } },
    required: ['count'],
  } as const;

  it('accepts what a tool output schema allows and returns it', () => {
    expect(validator.getValidator(schema)({ count: 2, email: 'a@example.com' })).toMatchObject({ valid: true, data: { count: 2, email: 'a@example.com' } });
  });

  it('rejects a missing field, a wrong type and a bad format', () => {
    const check = validator.getValidator(schema);
    for (const input of [{}, { count: -1 }, { count: 'two' }, { count: 1, email: 'not-an-address' }]) {
      const result = check(input);
      expect(result.valid).toBe(false);
      expect(result.errorMessage).toBeTruthy();
    }
  });

  it('exports the process the Node shims export', () => {
    expect(shims.process).toBe(process);
  });
});
