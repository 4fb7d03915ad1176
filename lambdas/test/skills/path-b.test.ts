import { verifyTurnToken } from '@service/skill-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WORKSPACE_ID } from '../../src/entries/local/seed';
import { scriptedModel } from '../support/scripted-model';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { command, waitForRun } from '../support/runs';
import { startBareMcpServer, type BareServer } from './bare-mcp-server';
import { envelopeTurn, offeredTools } from './helpers';

describe('Path B: a bare official-SDK MCP server registered by URL', () => {
  const model = scriptedModel([
    { text: 'Nothing to do yet.' },
    envelopeTurn('Not granted yet.'),
    { toolCalls: [{ toolName: 'weather__forecast', input: { city: 'Ankara' } }] },
    { text: 'Sunny in Ankara.' },
    envelopeTurn('Forecast fetched.'),
  ]);
  const ctx = usePlatform({ model, env: { WEBHOOK_ALLOW_LOCAL: '1' } });
  let bare: BareServer;
  let oauthServer: BareServer;
  let turnTokenSecret: string;
  beforeAll(async () => {
    bare = await startBareMcpServer();
    oauthServer = await startBareMcpServer({
      manifest: {
        manifestVersion: 1,
        code: 'drive',
        version: '1.0.0',
        defaultLocale: 'en',
        tools: [{ name: 'forecast', action: 'forecast', capability: 'drive.forecast', description: 'd', inputSchema: {} }],
        oauth: { provider: 'google' },
      },
    });
  });
  afterAll(async () => {
    await bare?.close();
    await oauthServer?.close();
  });

  it('registers it from initialize + tools/list and lists its tools as code__action', async () => {
    const registered = await ctx.api<{
      skill: { code: string; source: string; version: string; tools: { name: string; capability: string }[] };
      turn_token_secret: string;
    }>('skills/register/', {
      body: { url: bare.url, code: 'weather', bearer: 'weather-bearer-0123456789' },
    });
    expect(registered.status).toBe(201);
    expect(openApiProblems('skillsRegister', registered as ApiResponse<unknown>)).toEqual([]);
    expect(registered.body.data.skill).toMatchObject({
      code: 'weather',
      source: 'registered',
      tools: [{ name: 'weather__forecast', capability: 'weather.forecast' }],
    });
    turnTokenSecret = registered.body.data.turn_token_secret;
    expect(turnTokenSecret).not.toBe(ctx.platform.skillHost.turnTokenSecret);
    const listed = await ctx.api<{ skills: { code: string }[] }>('skills/list/');
    expect(listed.body.data.skills.map((skill) => skill.code)).toContain('weather');
    expect((await ctx.api('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'weather' } })).status).toBe(200);
  });

  it('keeps its tool from the model until the capability is granted', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'What is the weather in Ankara?' });
    await waitForRun(ctx.api, runId);
    expect(offeredTools(model.calls[0])).not.toContain('weather__forecast');
  });

  it('calls it in a run once granted, with its own bearer, the language and a turn token under its own key', async () => {
    expect((await ctx.api('grants/create/', { body: { role: 'admin', capability: 'weather.forecast' } })).status).toBe(201);
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'What is the weather in Ankara?' });
    const run = await waitForRun(ctx.api, runId);
    expect(offeredTools(model.calls[2])).toContain('weather__forecast');
    // readOnlyHint: a read tool runs even with the default read_only autonomy.
    expect(run.output).toMatchObject({ result: 'ok', actions: ['weather.forecast'] });
    expect(bare.calls).toHaveLength(1);
    const { headers, args } = bare.calls[0]!;
    expect(args).toEqual({ city: 'Ankara' });
    expect(headers.authorization).toBe('Bearer weather-bearer-0123456789');
    expect(headers['x-service-language']).toBe('en');
    const token = String(headers['x-service-turn-token']);
    await expect(verifyTurnToken(token, { secret: turnTokenSecret, skill: 'weather' })).resolves.toMatchObject({
      accountId: DEMO_WORKSPACE_ID,
      roles: ['admin'],
      capabilities: ['weather.forecast'],
    });
    await expect(verifyTurnToken(token, { secret: ctx.platform.skillHost.turnTokenSecret })).rejects.toThrow();
    expect(JSON.stringify(headers)).not.toContain(ctx.platform.skillHost.masterKey);
  });

  it('gives SKILL_OAUTH_REQUIRED (409) on install while the company has not connected the provider', async () => {
    const registered = await ctx.api<{ skill: { code: string } }>('skills/register/', { body: { url: oauthServer.url.replace(/\/mcp$/, '') } });
    expect(registered.status).toBe(201);
    expect(registered.body.data.skill.code).toBe('drive');
    const install = await ctx.api('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'drive' } });
    expect([install.status, install.body.error?.code]).toEqual([409, 'SKILL_OAUTH_REQUIRED']);
  });

  it('refuses URLs it cannot use, with the field named', async () => {
    const credentials = await ctx.api('skills/register/', { body: { url: 'http://user:pw@127.0.0.1:1/mcp' } });
    expect(credentials.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'url' });
    const metadata = await ctx.api('skills/register/', { body: { url: 'http://169.254.169.254/mcp' } });
    expect(metadata.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'url' });
    const builtin = await ctx.api('skills/register/', { body: { url: bare.url, code: 'email' } });
    expect(builtin.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'code' });
  });
});

describe('Path B without the local allowance', () => {
  const ctx = usePlatform();
  it('refuses a loopback or plain-http MCP server', async () => {
    const bare = await startBareMcpServer();
    try {
      const response = await ctx.api<unknown>('skills/register/', { body: { url: bare.url, code: 'weather' } });
      expect(response.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'url' });
      expect(response.body.msg).toMatch(/https/);
      expect(bare.calls).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});
