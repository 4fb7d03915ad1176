import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineSkill, manifestSchema, mintTurnToken, startSkill, z, type Logger, type RunningSkill } from '../src/index';
import { TEST_IDS } from '../src/test';

const BEARER = 'bearer-for-the-start-skill-test';
const SECRET = 'turn-token-key-for-tests-0123456789abcdef';
const ACCOUNT = '7b0e8a3e-2a44-4d5c-9f43-5b8f1d1f2c11';

// Written exactly as the spec's tables describe a skill.
const weather = defineSkill({
  code: 'weather',
  version: '1.2.0',
  defaultLocale: 'en',
  locales: {
    en: { forecast: 'Sunny in {city}' },
    tr: { forecast: '{city} güneşli' },
  },
  tools: {
    forecast: {
      description: 'Weather forecast for a city',
      input: { city: z.string().min(1) },
      handler: async ({ city }, ctx) => ({ text: ctx.t('forecast', { city }), account: ctx.accountId }),
      roles: ['member'],
    },
  },
  events: {
    'contact.created': async () => undefined,
  },
});

const logged: string[] = [];
const log: Logger = { error: (m, d) => logged.push(`${m} ${String(d)}`), warn: (m) => logged.push(m) };
let running: RunningSkill;

beforeAll(async () => {
  running = await startSkill(weather, { port: 0, bearer: BEARER, turnTokenSecret: SECRET, log });
});
afterAll(() => running.close());

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'platform-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), { requestInit: { headers } }));
  return client;
}

async function token(claims: { capabilities?: string[]; roles?: string[]; skill?: string } = {}, now?: number) {
  return mintTurnToken({ accountId: ACCOUNT, ...claims }, { secret: SECRET, ...(now !== undefined && { now }) });
}

const rpc = (headers: Record<string, string>) =>
  fetch(`${running.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

describe('startSkill with the official MCP client', () => {
  it('lists tools as code__action and calls them in the caller language', async () => {
    const client = await connect({
      authorization: `Bearer ${BEARER}`,
      'x-service-turn-token': await token({ capabilities: ['weather.forecast'] }),
      'x-service-language': 'tr-TR',
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['weather__forecast']);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });

    const result = await client.callTool({ name: 'weather__forecast', arguments: { city: 'Ankara' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ text: 'Ankara güneşli', account: ACCOUNT });
    await client.close();
  });

  it('answers invalid arguments with an isError result naming the field', async () => {
    const client = await connect({
      authorization: `Bearer ${BEARER}`,
      'x-service-turn-token': await token({ capabilities: ['weather.forecast'] }),
    });
    const result = await client.callTool({ name: 'weather__forecast', arguments: { city: 42 } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('city');
    await client.close();
  });

  it('refuses a request without the bearer with 401', async () => {
    await expect(connect({})).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Unauthorized') });
    const refused = await rpc({});
    expect(refused.status).toBe(401);
    // No bare Bearer challenge: OAuth-capable clients would start an authorization flow the skill does not offer.
    expect(refused.headers.get('www-authenticate')).toBeNull();
    expect((await rpc({ authorization: 'Bearer wrong' })).status).toBe(401);
    const events = await fetch(`${running.url}/events`, { method: 'POST', body: '{"type":"contact.created"}' });
    expect(events.status).toBe(401);
  });

  it('never issues an Mcp-Session-Id', async () => {
    const response = await fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toMatchObject({ result: { serverInfo: { name: 'weather', version: '1.2.0' } } });
  });

  it('refuses expired, tampered and foreign turn tokens with 401', async () => {
    const expired = await token({ capabilities: ['weather.forecast'] }, Math.floor(Date.now() / 1000) - 300);
    const valid = await token({ capabilities: ['weather.forecast'] });
    const [head, payload, signature] = valid.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), caps: ['weather.forecast', 'x.y'] })).toString(
      'base64url',
    );
    const tampered = `${head}.${forged}.${signature}`;
    const foreign = await token({ capabilities: ['weather.forecast'], skill: 'crm' });

    for (const [bad, code] of [
      [expired, 'TURN_TOKEN_EXPIRED'],
      [tampered, 'TURN_TOKEN_INVALID'],
      [foreign, 'TURN_TOKEN_INVALID'],
    ] as const) {
      const response = await rpc({ authorization: `Bearer ${BEARER}`, 'x-service-turn-token': bad });
      expect(response.status).toBe(401);
      expect(JSON.stringify(await response.json())).toContain(code);
    }
    expect(logged.join('\n')).not.toContain(valid.slice(0, 20));
  });

  it('denies by default and lets a grant override the tool roles', async () => {
    const call = async (headers: Record<string, string>) => {
      const client = await connect({ authorization: `Bearer ${BEARER}`, ...headers });
      const result = await client.callTool({ name: 'weather__forecast', arguments: { city: 'Izmir' } });
      await client.close();
      return result;
    };
    // No turn token: nobody is known, so nothing is allowed.
    expect((await call({})).isError).toBe(true);
    // No grant: the tool's roles decide.
    expect((await call({ 'x-service-turn-token': await token({ roles: ['member'] }) })).isError).toBeUndefined();
    expect((await call({ 'x-service-turn-token': await token({ roles: ['public'] }) })).structuredContent).toMatchObject({ error: { code: 'FORBIDDEN' } });
    // A grant decides alone: it can deny a role the tool lists ...
    expect((await call({ 'x-service-turn-token': await token({ roles: ['member'], capabilities: ['weather.other'] }) })).isError).toBe(true);
    // ... and allow one it does not.
    expect((await call({ 'x-service-turn-token': await token({ roles: ['public'], capabilities: ['weather.forecast'] }) })).isError).toBeUndefined();
  });
});

describe('the other routes', () => {
  it('serves a manifest the platform can parse', async () => {
    const response = await fetch(`${running.url}/manifest`);
    expect(response.status).toBe(200);
    const manifest = manifestSchema.parse(await response.json());
    expect(manifest).toMatchObject({
      code: 'weather',
      version: '1.2.0',
      defaultLocale: 'en',
      locales: ['en', 'tr'],
      events: ['contact.created'],
      limits: { toolTimeoutMs: 15_000, maxResponseBytes: 5 * 1024 * 1024 },
    });
    expect(manifest.tools).toEqual([
      expect.objectContaining({
        name: 'weather__forecast',
        action: 'forecast',
        capability: 'weather.forecast',
        description: 'Weather forecast for a city',
        roles: ['member'],
        inputSchema: expect.objectContaining({ required: ['city'] }),
      }),
    ]);
  });

  it('answers /health, /test, /events and unknown routes', async () => {
    expect(await (await fetch(`${running.url}/health`)).json()).toEqual({ status: 'ok', code: 'weather', version: '1.2.0' });

    const probe = await fetch(`${running.url}/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BEARER}`, 'x-service-turn-token': await token(), 'x-service-language': 'TR' },
    });
    expect(await probe.json()).toMatchObject({ ok: true, request: { bearer: 'valid', turnToken: 'valid', language: 'tr' } });

    const headers = { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json' };
    const handled = await fetch(`${running.url}/events`, { method: 'POST', headers, body: JSON.stringify({ type: 'contact.created', data: {} }) });
    expect(await handled.json()).toEqual({ handled: true, type: 'contact.created' });
    const ignored = await fetch(`${running.url}/events`, { method: 'POST', headers, body: JSON.stringify({ type: 'other' }) });
    expect(await ignored.json()).toEqual({ handled: false, type: 'other' });
    const invalid = await fetch(`${running.url}/events`, { method: 'POST', headers, body: '{"data":1}' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('type') } });

    expect((await fetch(`${running.url}/nope`)).status).toBe(404);
    const wrongMethod = await fetch(`${running.url}/mcp`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    const response = await fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('refuses a body over 5 MB with 413, by its length or, sent in chunks, once read past the cap', async () => {
    const headers = { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const declared = await fetch(`${running.url}/mcp`, { method: 'POST', headers, body: 'x'.repeat(5 * 1024 * 1024 + 1) });
    expect(declared.status).toBe(413);
    const chunk = new Uint8Array(1024 * 1024).fill(120);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({ pull: (controller) => (sent++ < 6 ? controller.enqueue(chunk) : controller.close()) });
    const chunked = await fetch(`${running.url}/mcp`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});

describe('startup rules', () => {
  it('refuses to start in production without a bearer', async () => {
    await expect(startSkill(weather, { production: true, bearer: '', turnTokenSecret: SECRET, log })).rejects.toThrow(/SKILL_BEARER is required/);
  });

  it('runs in development mode without a bearer: announced, and a call without a turn token gets a mock caller', async () => {
    const warnings: string[] = [];
    const info: string[] = [];
    const dev = await startSkill(weather, { bearer: '', log: { error: () => undefined, warn: (m) => warnings.push(m), info: (m) => info.push(m) } });
    try {
      expect(warnings.join('\n')).toMatch(/DEVELOPMENT MODE/);
      expect(info.join('\n')).toContain(`listening on ${dev.url}`);
      expect(info.join('\n')).toContain('tools: weather__forecast (action)');
      expect(info.join('\n')).toMatch(/Mark tools that only read with annotations: \{ readOnlyHint: true \}/);
      const response = await fetch(`${dev.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'weather__forecast', arguments: { city: 'Oslo' } } }),
      });
      expect(response.status).toBe(200);
      const { result } = (await response.json()) as { result: { isError?: boolean; structuredContent: unknown } };
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual({ text: 'Sunny in Oslo', account: TEST_IDS.accountId });
    } finally {
      await dev.close();
    }
  });

  it('takes a turn-token key while running, without a restart', async () => {
    const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined };
    const late = await startSkill(weather, { bearer: BEARER, turnTokenSecret: '', log: quiet });
    const call = async () =>
      fetch(`${late.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${BEARER}`,
          'x-service-turn-token': await token({ roles: ['member'] }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'weather__forecast', arguments: { city: 'Oslo' } } }),
      });
    try {
      expect((await call()).status).toBe(401);
      late.setTurnTokenSecret(SECRET);
      expect((await call()).status).toBe(200);
      expect(() => late.setTurnTokenSecret('short')).toThrow(/32 characters/);
    } finally {
      await late.close();
    }
  });

  it('verifies a remembered turn token anew once the key changes', async () => {
    const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined };
    const rotating = await startSkill(weather, { bearer: BEARER, turnTokenSecret: SECRET, log: quiet });
    const turnToken = await token({ roles: ['member'] });
    const call = () =>
      fetch(`${rotating.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${BEARER}`,
          'x-service-turn-token': turnToken,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'weather__forecast', arguments: { city: 'Oslo' } } }),
      });
    try {
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      rotating.setTurnTokenSecret('a-rotated-turn-token-key-0123456789abcdef');
      const refused = await call();
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain('TURN_TOKEN_INVALID');
    } finally {
      await rotating.close();
    }
  });
});
