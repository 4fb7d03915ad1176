import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';

describe('validation holds at its edges', () => {
  const ctx = usePlatform();

  it('refuses schema.required naming an inherited property name that the schema does not declare', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const response = await ctx.api('agents/command/', {
        body: { agent_id: ctx.agentId, instruction: 'x', schema: { type: 'object', properties: { name: { type: 'string' } }, required: [name] } },
      });
      expect(response.status, name).toBe(400);
      expect(response.body.error).toEqual({ code: 'SCHEMA_INVALID', field: 'schema.required.0' });
    }
  });

  it('publishes only ECMA patterns without flags, and the agent_id pattern matches UUIDs', async () => {
    const document = await (await fetch(`${ctx.platform.apiBaseUrl}/openapi.json`)).text();
    const patterns = new Set<string>();
    JSON.parse(document, (key, value: unknown) => (key === 'pattern' && typeof value === 'string' && patterns.add(value), value));
    expect(patterns.size).toBeGreaterThan(0);
    for (const pattern of patterns) {
      expect(() => new RegExp(pattern, 'u'), pattern).not.toThrow();
      expect(pattern, 'a JavaScript flag inside the pattern').not.toMatch(/\/[dgimsuyv]+$/);
    }
    const agentsGet = (JSON.parse(document) as { paths: Record<string, { get: { parameters: { name: string; schema: { pattern: string } }[] } }> }).paths[
      '/agents/get/'
    ]!;
    const agentIdPattern = new RegExp(agentsGet.get.parameters.find((parameter) => parameter.name === 'agent_id')!.schema.pattern, 'u');
    for (const uuid of [ctx.agentId, ctx.agentId.toUpperCase(), '5eed0000-0000-4000-8000-0000000000a1']) expect(agentIdPattern.test(uuid), uuid).toBe(true);
    expect(agentIdPattern.test('not-a-uuid')).toBe(false);
  });

  it('looks up any cmd_ run id (404 RUN_NOT_FOUND) and refuses only other shapes (400)', async () => {
    for (const runId of ['cmd_doesnotexist', 'cmd_x', `cmd_${'a'.repeat(24)}`]) {
      const response = await ctx.api('agents/command_status/', { query: { run_id: runId } });
      expect(response.status, runId).toBe(404);
      expect(response.body.error?.code).toBe('RUN_NOT_FOUND');
    }
    for (const runId of ['doesnotexist', 'cmd', `cmd_${'a'.repeat(100)}`]) {
      const response = await ctx.api('agents/command_status/', { query: { run_id: runId } });
      expect(response.status, runId).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'run_id' });
    }
  });
});
