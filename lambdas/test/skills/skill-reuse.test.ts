import { verifyTurnToken } from '@service/skill-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSkill } from '../../src/domains/skills/skill-client';
import { turnTokenId } from '../../src/domains/skills/turns';
import { scriptedModel, type ScriptedTurn } from '../support/scripted-model';
import { usePlatform } from '../support/platform';
import { command, waitForRun } from '../support/runs';
import { startBareMcpServer, type BareServer } from './bare-mcp-server';
import { envelopeTurn } from './helpers';

const RUNS = 4;
const CITIES = Array.from({ length: RUNS }, (_, index) => `City${index}`);

describe('one MCP client per stateless skill per container', () => {
  const model = scriptedModel(
    CITIES.flatMap((city): ScriptedTurn[] => [
      { toolCalls: [{ toolName: 'weather__forecast', input: { city } }] },
      { text: `Sunny in ${city}.` },
      envelopeTurn('Forecast fetched.'),
    ]),
  );
  const ctx = usePlatform({ model, env: { WEBHOOK_ALLOW_LOCAL: '1' } });
  let bare: BareServer;
  let turnTokenSecret: string;
  beforeAll(async () => {
    bare = await startBareMcpServer();
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('makes one tools/call per run and one handshake for all of them, each call with its own run’s turn token', async () => {
    const registered = await ctx.api<{ turn_token_secret: string }>('skills/register/', { body: { url: bare.url, code: 'weather' } });
    expect(registered.status).toBe(201);
    turnTokenSecret = registered.body.data.turn_token_secret;
    expect((await ctx.api('grants/create/', { body: { role: 'admin', capability: 'weather.forecast' } })).status).toBe(201);
    expect((await ctx.api('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'weather' } })).status).toBe(200);
    bare.requests.length = 0;

    const runIds: string[] = [];
    for (const city of CITIES) {
      const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: `What is the weather in ${city}?` });
      expect((await waitForRun(ctx.api, runId)).output).toMatchObject({ result: 'ok', actions: ['weather.forecast'] });
      runIds.push(runId);
    }

    const count = (rpc: string) => bare.requests.filter((request) => request.rpc === rpc).length;
    expect(count('tools/call')).toBe(RUNS);
    expect(count('initialize')).toBe(1);
    expect(bare.requests.filter((request) => request.http === 'GET').length).toBeLessThanOrEqual(1);
    expect(bare.calls.map((call) => call.args)).toEqual(CITIES.map((city) => ({ city })));
    const tokens = bare.calls.map((call) => String(call.headers['x-service-turn-token']));
    expect(new Set(tokens.map(turnTokenId)).size).toBe(RUNS);
    for (const token of tokens) await expect(verifyTurnToken(token, { secret: turnTokenSecret, skill: 'weather' })).resolves.toBeDefined();
  });
});

describe('a shared skill client under concurrent calls', () => {
  let bare: BareServer;
  beforeAll(async () => {
    bare = await startBareMcpServer();
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('sends each call with its own caller’s headers, never another’s', async () => {
    const target = { mcpUrl: bare.url, bearer: 'bench-bearer-0123456789' };
    const calls = Array.from({ length: 12 }, (_, index) => ({ city: `City${index}`, token: `token-of-call-${index}` }));
    await Promise.all(
      calls.map(async ({ city, token }) => {
        const link = await openSkill(target);
        try {
          await link.callTool('forecast', { city }, { 'x-service-turn-token': token, 'x-service-language': 'en' });
        } finally {
          await link.release();
        }
      }),
    );
    expect(bare.requests.filter((request) => request.rpc === 'initialize')).toHaveLength(1);
    expect(bare.calls).toHaveLength(calls.length);
    for (const call of bare.calls) {
      const { city } = call.args as { city: string };
      expect(call.headers['x-service-turn-token']).toBe(`token-of-call-${city.slice('City'.length)}`);
      expect(call.headers.authorization).toBe('Bearer bench-bearer-0123456789');
    }
  });

  it('sends no turn token with the handshake', async () => {
    const other = await startBareMcpServer();
    try {
      const link = await openSkill({ mcpUrl: other.url });
      await link.callTool('forecast', { city: 'Ankara' }, { 'x-service-turn-token': 'token-of-the-call' });
      const handshake = other.requests.filter((request) => request.rpc !== 'tools/call');
      expect(handshake.map((request) => request.rpc ?? request.http).sort()).toEqual(['GET', 'initialize', 'notifications/initialized']);
      for (const request of handshake) expect(request.headers['x-service-turn-token']).toBeUndefined();
      expect(other.calls.map((call) => call.headers['x-service-turn-token'])).toEqual(['token-of-the-call']);
    } finally {
      await other.close();
    }
  });
});
