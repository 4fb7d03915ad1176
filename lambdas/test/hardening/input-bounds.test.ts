import { describe, expect, it } from 'vitest';
import { orphanRunMessages } from '../support/orphans';
import { scriptedModel } from '../support/scripted-model';
import { usePlatform } from '../support/platform';
import { command, waitForRun } from '../support/runs';

const nested = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let level = 0; level < levels; level += 1) value = { level: value };
  return value;
};

describe('input is normalised at the boundary: bounded, and every key is data', () => {
  const ctx = usePlatform();

  it('stores and returns constructor, __proto__ and prototype as ordinary keys, in data, schema and output', async () => {
    // Written as JSON text: an object literal's __proto__ would set a prototype, not a key.
    const data = '{"constructor":"Williams","__proto__":{"constructor":"x"},"prototype":[{"constructor":{"__proto__":1}}]}';
    const properties = '{"constructor":{"type":"string"},"__proto__":{"type":"string"},"prototype":{"type":"string"}}';
    const schema = `{"type":"object","properties":${properties},"required":["constructor","__proto__"]}`;
    const body = `{"agent_id":"${ctx.agentId}","instruction":"Summarise the customer","data":${data},"schema":${schema}}`;
    const accepted = await ctx.api<{ run: { run_id: string } }>('agents/command/', { rawBody: body });
    expect(accepted.status).toBe(202);
    const run = await waitForRun(ctx.api, accepted.body.data.run.run_id);
    expect(run.status).toBe('completed');
    for (const key of ['constructor', '__proto__', 'prototype']) expect(Object.hasOwn(run.output!, key), key).toBe(true);
  });

  it('refuses data nested past 16 levels, a body past 32, and 3,000 levels quickly, as 400 VALIDATION_ERROR', async () => {
    const base = { agent_id: ctx.agentId, instruction: 'x' };
    expect((await ctx.api('agents/command/', { body: { ...base, data: nested(15) } })).status).toBe(202);
    const deep = await ctx.api('agents/command/', { body: { ...base, data: nested(17) } });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: expect.stringMatching(/^data/) });
    const started = Date.now();
    const hostile = await ctx.api('agents/command/', {
      rawBody: `{"agent_id":"${ctx.agentId}","instruction":"x","data":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
    });
    expect(hostile.status).toBe(400);
    expect(hostile.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'body' });
    expect(Date.now() - started).toBeLessThan(5_000);
    const longKey = await ctx.api('agents/command/', { body: { ...base, data: { ['k'.repeat(300)]: 1 } } });
    expect(longKey.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'data' });
  });

  it('answers a hostile or oversized list cursor with 400 VALIDATION_ERROR on every list', async () => {
    const forged = (sk: string) => Buffer.from(JSON.stringify({ sk })).toString('base64url');
    const cursors = [forged(`contact#${'x'.repeat(1100)}`), forged('task#2026-01-01T00:00:00.000Z#tsk_a'.padEnd(200, 'z')), 'x'.repeat(300), '%%%', forged('')];
    for (const path of ['contacts/list/', 'calendar/event_list/', 'tasks/list/', 'email/outbox/']) {
      for (const cursor of cursors) {
        const response = await ctx.api(path, { query: { cursor } });
        expect(response.status, `${path} ${cursor.slice(0, 20)}`).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'cursor' });
      }
    }
  });

  it('pages with the cursors it hands out', async () => {
    for (const name of ['Ann', 'Bob', 'Cem']) await ctx.api('contacts/create/', { body: { name } });
    const first = await ctx.api<{ contacts: { name: string }[]; next_cursor: string }>('contacts/list/', { query: { limit: '2' } });
    const second = await ctx.api<{ contacts: { name: string }[] }>('contacts/list/', { query: { limit: '2', cursor: first.body.data.next_cursor } });
    expect([...first.body.data.contacts, ...second.body.data.contacts].map((contact) => contact.name)).toEqual(['Cem', 'Bob', 'Ann']);
  });

  it('leaves no queue message without its run', async () => {
    await command(ctx.api, { agent_id: ctx.agentId, instruction: 'one more' });
    expect(await orphanRunMessages(ctx.platform.deps)).toEqual([]);
  });
});

describe('a schema whose property names Object.prototype also holds', () => {
  // The model sees constructor_ and __proto___ (no parser or validator on the way can mistake them) and answers so.
  const answer = '{"constructor_":"Williams","__proto___":"Ada","prototype":"kept","toString_":null}';
  const ctx = usePlatform({ model: scriptedModel([{ text: 'Done.' }, { text: answer }]) });

  it("comes back under the caller's names, each with the value the model produced", async () => {
    const properties = '{"constructor":{"type":"string"},"__proto__":{"type":"string"},"prototype":{"type":"string"},"toString":{"type":"string"}}';
    const body = `{"agent_id":"${ctx.agentId}","instruction":"Name them","schema":{"type":"object","properties":${properties},"required":["constructor"]}}`;
    const accepted = await ctx.api<{ run: { run_id: string } }>('agents/command/', { rawBody: body });
    const run = await waitForRun(ctx.api, accepted.body.data.run.run_id);
    expect(run.output_error).toBeNull();
    expect(JSON.stringify(run.output)).toBe('{"constructor":"Williams","__proto__":"Ada","prototype":"kept","toString":null}');
  });
});
