import { describe, expect, it } from 'vitest';
import { recordUsage } from '../../src/domains/usage/usage';
import { apiClient, usePlatform } from '../support/platform';
import { createWorkspace } from '../support/workspaces';

describe('errors, through HTTP', () => {
  const ctx = usePlatform();

  it('404 NOT_FOUND for an unknown resource or language', async () => {
    for (const path of ['nothing/here/', 'agents/fly/']) {
      const response = await ctx.api(path);
      expect(response.status).toBe(404);
      expect(response.body.error?.code).toBe('NOT_FOUND');
    }
    const klingon = await fetch(`${ctx.platform.url}/xx/api/v1/agents/list/`, { headers: { 'x-service-api-key': ctx.key } });
    expect(klingon.status).toBe(404);
  });

  it('405 METHOD_NOT_ALLOWED with an Allow header', async () => {
    const response = await ctx.api('agents/command/', { method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.body.error?.code).toBe('METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('400 VALIDATION_ERROR naming the field', async () => {
    const missing = await ctx.api('agents/command/', { body: { agent_id: ctx.agentId } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'instruction' });
    const badUuid = await ctx.api('agents/get/', { query: { agent_id: '42' } });
    expect(badUuid.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'agent_id' });
    expect(badUuid.body.msg).toContain('UUID');
    const unknownField = await ctx.api('contacts/create/', { body: { name: 'A', company_id: 7 } });
    expect(unknownField.status).toBe(400);
    const badEvent = await ctx.api('calendar/event_create/', {
      body: { title: 'Demo', starts_at: '2026-12-01T10:00:00Z', ends_at: '2026-12-01T09:00:00Z' },
    });
    expect(badEvent.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'ends_at' });
  });

  it('400 for malformed JSON, 415 for another media type, 413 for a body over the limit', async () => {
    const malformed = await ctx.api('contacts/create/', { rawBody: '{"name": "A",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'body' });
    const form = await ctx.api('contacts/create/', { rawBody: 'name=A', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    expect(form.body.error?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const huge = await ctx.api('agents/command/', { body: { agent_id: ctx.agentId, instruction: 'x', data: { blob: 'y'.repeat(200_000) } } });
    expect(huge.status).toBe(413);
    expect(huge.body.error?.code).toBe('PAYLOAD_TOO_LARGE');
    const tooLongNote = await ctx.api('contacts/create/', { body: { name: 'A', notes: 'n'.repeat(5000) } });
    expect(tooLongNote.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'notes' });
  });

  it('404 AGENT_NOT_FOUND and RUN_NOT_FOUND', async () => {
    const agent = await ctx.api('agents/get/', { query: { agent_id: '00000000-0000-4000-8000-000000000000' } });
    expect(agent.status).toBe(404);
    expect(agent.body.error?.code).toBe('AGENT_NOT_FOUND');
    const run = await ctx.api('agents/command_status/', { query: { run_id: 'cmd_AAAAAAAAAAAAAAAAAAAAAAAA' } });
    expect(run.status).toBe(404);
    expect(run.body.error?.code).toBe('RUN_NOT_FOUND');
  });

  it('an unknown id answers 404 with its documented code on every endpoint that takes one, whatever else the body changes', async () => {
    const agent_id = '00000000-0000-4000-8000-000000000000';
    const run_id = 'cmd_AAAAAAAAAAAAAAAAAAAAAAAA';
    const unknown: [path: string, request: { body?: unknown; query?: Record<string, string> }, code: string][] = [
      ['agents/get/', { query: { agent_id } }, 'AGENT_NOT_FOUND'],
      ['agents/runs/', { query: { agent_id } }, 'AGENT_NOT_FOUND'],
      ['agents/command/', { body: { agent_id, instruction: 'Hello' } }, 'AGENT_NOT_FOUND'],
      ['agents/identity_secret/', { body: { agent_id } }, 'AGENT_NOT_FOUND'],
      ['agents/update/', { body: { agent_id, name: 'Nora' } }, 'AGENT_NOT_FOUND'],
      ['agents/update/', { body: { agent_id, company_name: 'Acme', colors: { primary: '#000000' }, widget: { show_delay_ms: 100 } } }, 'AGENT_NOT_FOUND'],
      ['agents/update/', { body: { agent_id, teaser_word: 'Hi' } }, 'AGENT_NOT_FOUND'],
      ['agents/update/', { body: { agent_id } }, 'AGENT_NOT_FOUND'],
      [
        'agents/update/',
        { body: { agent_id, allowed_origins: ['https://shop.example'], avatar_url: 'https://shop.example/a.png', locale: 'tr', persona: 'p', role: 'r' } },
        'AGENT_NOT_FOUND',
      ],
      ['skills/install/', { body: { agent_id, skill_code: 'calendar' } }, 'AGENT_NOT_FOUND'],
      ['skills/uninstall/', { body: { agent_id, skill_code: 'calendar' } }, 'AGENT_NOT_FOUND'],
      ['conversations/list/', { query: { agent_id } }, 'AGENT_NOT_FOUND'],
      ['agents/command_status/', { query: { run_id } }, 'RUN_NOT_FOUND'],
      ['agents/command_cancel/', { body: { run_id } }, 'RUN_NOT_FOUND'],
      ['webhooks/delete/', { body: { webhook_id: 'wh_nothing' } }, 'NOT_FOUND'],
      ['webhooks/test/', { body: { webhook_id: 'wh_nothing' } }, 'NOT_FOUND'],
      ['webhooks/deliveries/', { query: { webhook_id: 'wh_nothing' } }, 'NOT_FOUND'],
      ['webhooks/redeliver/', { body: { webhook_id: 'wh_nothing', event_id: 'evt_AAAAAAAAAAAA' } }, 'NOT_FOUND'],
      ['keys/revoke/', { body: { key_id: 'key_nothing' } }, 'NOT_FOUND'],
      ['connections/calls/', { query: { connection_id: 'mcn_AAAAAAAAAAAAAAAAAAAA' } }, 'NOT_FOUND'],
      ['connections/withdraw/', { body: { connection_id: 'mcn_AAAAAAAAAAAAAAAAAAAA' } }, 'NOT_FOUND'],
    ];
    const answers = await Promise.all(
      unknown.map(async ([path, request]) => {
        const response = await ctx.api(path, request);
        return `${path} ${response.status} ${response.body.error?.code}`;
      }),
    );
    expect(answers).toEqual(unknown.map(([path, , code]) => `${path} 404 ${code}`));
    const unchanged = await ctx.api<{ agent: { id: string } }>('agents/update/', { body: { agent_id: ctx.agentId } });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.data.agent.id).toBe(ctx.agentId);
  });

  it('402 TOKEN_LIMIT_REACHED once the plan’s monthly tokens are used', async () => {
    const small = await createWorkspace(ctx.platform.deps, 'partner', 1000);
    const api = apiClient(ctx.platform.apiBaseUrl, small.apiKey);
    expect((await api('agents/command/', { body: { agent_id: small.agentId, instruction: 'hi' } })).status).toBe(202);
    await recordUsage(ctx.platform.deps, small.workspaceId, small.agentId, { inputTokens: 600, outputTokens: 400 });
    const response = await api('agents/command/', { body: { agent_id: small.agentId, instruction: 'hi' } });
    expect(response.status).toBe(402);
    expect(response.body.error?.code).toBe('TOKEN_LIMIT_REACHED');
    const billing = await api<{ tokens_used: number; tokens_remaining: number }>('billing/get/');
    expect(billing.body.data).toMatchObject({ tokens_used: 1000, tokens_remaining: 0 });
  });
});

describe('SCHEMA_INVALID names the exact path', () => {
  const ctx = usePlatform();
  const command = (schema: unknown) => ctx.api('agents/command/', { body: { agent_id: ctx.agentId, instruction: 'Summarise', schema } });

  it.each([
    [{ type: 'object', properties: { when: { type: 'date' } } }, 'schema.properties.when.type'],
    [{ type: 'object', properties: { tags: { type: 'array', items: { type: 'null' } } } }, 'schema.properties.tags.items.type'],
    [{ type: 'object', properties: { name: { type: 'string', format: 'email' } } }, 'schema.properties.name.format'],
    [{ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, 'schema.required.0'],
    [{ type: 'string' }, 'schema.type'],
  ])('%j -> %s', async (schema, path) => {
    const response = await command(schema);
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: 'SCHEMA_INVALID', field: path });
    expect(response.body.msg).toContain(path);
  });

  it('rejects more than 50 properties and more than 5 levels', async () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const tooWide = await command(wide);
    expect(tooWide.body.error).toEqual({ code: 'SCHEMA_INVALID', field: 'schema.properties.p50' });

    const nest = (depth: number): Record<string, unknown> => (depth === 1 ? { type: 'string' } : { type: 'object', properties: { n: nest(depth - 1) } });
    expect((await command(nest(5))).status).toBe(202);
    const tooDeep = await command(nest(6));
    expect(tooDeep.body.error).toEqual({ code: 'SCHEMA_INVALID', field: 'schema.properties.n.properties.n.properties.n.properties.n.properties.n' });
  });

  it('accepts every supported type with description, enum, items and required', async () => {
    const response = await command({
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'string', enum: ['new', 'won'], description: 'Lead status' },
        score: { type: 'number' },
        seats: { type: 'integer' },
        vip: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        address: { type: 'object', properties: { city: { type: 'string' } } },
      },
    });
    expect(response.status).toBe(202);
  });
});

describe('rate limiting', () => {
  // Pinned mid-minute, so the four requests always fall in one window.
  const ctx = usePlatform({ env: { RATE_LIMIT_PER_MINUTE: '3' }, now: () => new Date('2026-11-22T10:00:30Z') });

  it('answers 429 RATE_LIMITED with Retry-After and RateLimit headers past the quota', async () => {
    const first = await ctx.api('agents/list/');
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    await ctx.api('agents/list/');
    await ctx.api('agents/list/');
    const limited = await ctx.api('agents/list/');
    expect(limited.status).toBe(429);
    expect(limited.body.error?.code).toBe('RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBe(30);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  });
});
