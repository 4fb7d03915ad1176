import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineSkill, mintTurnToken, serviceApi, startSkill, verifyTurnToken, z, type RunningSkill } from '../src/index';

// The platform's serviceApi routes are built elsewhere; this stand-in speaks their contract over real HTTP:
// it verifies the turn token and answers with the response envelope.
const secret = 'service-api-test-key-0123456789abcdefgh';
const accountId = '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const seen: { path: string; account?: string; language?: string; body: unknown }[] = [];
let platform: Server;
let apiUrl: string;
let skillServer: RunningSkill;

const envelope = (status: number, data: unknown, error?: string) =>
  JSON.stringify({
    status: !error,
    code: status,
    title: error ? 'Error' : 'OK',
    data,
    msg: error ? `failed: ${error}` : 'ok',
    ...(error && { error: { code: error } }),
  });

const notes = defineSkill({
  code: 'notes',
  version: '0.1.0',
  defaultLocale: 'en',
  tools: {
    save: {
      description: 'Save a note',
      input: { text: z.string().min(1) },
      handler: async ({ text }, ctx) => ({ note: await serviceApi(ctx, 'skills/notes/save', { text }) }),
    },
    connected: {
      description: 'Needs an OAuth connection',
      handler: async (_input, ctx) => ({ data: await serviceApi(ctx, 'skills/notes/needs_oauth') }),
    },
  },
});

beforeAll(async () => {
  platform = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    res.setHeader('content-type', 'application/json');
    try {
      const claims = await verifyTurnToken(String(req.headers['x-service-turn-token']), { secret });
      seen.push({ path: req.url ?? '', account: claims.accountId, language: String(req.headers['x-service-language']), body: JSON.parse(body) });
      if (req.url?.endsWith('/needs_oauth/')) return res.writeHead(403).end(envelope(403, null, 'SKILL_OAUTH_REQUIRED'));
      res.writeHead(200).end(envelope(200, { id: 'n1', account: claims.accountId, ...JSON.parse(body) }));
    } catch {
      res.writeHead(401).end(envelope(401, null, 'TURN_TOKEN_INVALID'));
    }
  });
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}/en/api/v1`;
  skillServer = await startSkill(notes, { bearer: 'b', turnTokenSecret: secret, apiUrl, log: { error: () => undefined, warn: () => undefined } });
});
afterAll(async () => {
  await skillServer.close();
  platform.closeAllConnections();
  await new Promise((resolve) => platform.close(resolve));
});

async function callTool(name: string, args: Record<string, unknown>, turnToken: string, server = skillServer) {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer b',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-service-turn-token': turnToken,
      'x-service-language': 'tr',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return ((await response.json()) as { result: { structuredContent: unknown; isError?: boolean } }).result;
}

describe('serviceApi over HTTP', () => {
  it('POSTs to <apiUrl>/skills/<code>/<method>/ with the turn token and returns the envelope data', async () => {
    const token = await mintTurnToken({ accountId, capabilities: ['notes.save'] }, { secret });
    const result = await callTool('notes__save', { text: 'hello' }, token);
    expect(result.structuredContent).toEqual({ note: { id: 'n1', account: accountId, text: 'hello' } });
    expect(seen.at(-1)).toEqual({ path: '/en/api/v1/skills/notes/save/', account: accountId, language: 'tr', body: { text: 'hello' } });
  });

  it('throws the envelope error code, which the tool result carries', async () => {
    const token = await mintTurnToken({ accountId, capabilities: ['notes.connected'] }, { secret });
    const result = await callTool('notes__connected', {}, token);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: { code: 'SKILL_OAUTH_REQUIRED', message: 'failed: SKILL_OAUTH_REQUIRED' } });
  });

  it('says clearly when the platform is unreachable or not configured', async () => {
    const unreachable = await startSkill(notes, {
      bearer: 'b',
      turnTokenSecret: secret,
      apiUrl: 'http://127.0.0.1:9/api',
      log: { error: () => undefined, warn: () => undefined },
    });
    const unconfigured = await startSkill(notes, {
      bearer: 'b',
      turnTokenSecret: secret,
      apiUrl: undefined,
      log: { error: () => undefined, warn: () => undefined },
    });
    try {
      const token = await mintTurnToken({ accountId, capabilities: ['notes.save'] }, { secret });
      expect((await callTool('notes__save', { text: 'x' }, token, unreachable)).structuredContent).toMatchObject({ error: { code: 'API_UNREACHABLE' } });
      if (!process.env.SERVICE_API_URL) {
        expect((await callTool('notes__save', { text: 'x' }, token, unconfigured)).structuredContent).toMatchObject({ error: { code: 'API_URL_MISSING' } });
      }
    } finally {
      await unreachable.close();
      await unconfigured.close();
    }
  });
});
