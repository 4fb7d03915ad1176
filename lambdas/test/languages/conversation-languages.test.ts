import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { defineSkill, startSkill, z, type RunningSkill } from '@service/skill-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { command, waitForRun } from '../support/runs';
import { sseMessages } from '../support/sse';

// Spec 3: a skill's ctx.language is the normalized conversation language, whichever door the conversation came
// through, and the agent answers in it. Each door gets a question in a third language (neither English nor Turkish,
// the widget's interface locales); the built-in offline model answers; a real skill reports what ctx.language said.

const ORIGIN = 'http://localhost:3000';
const BEARER = 'taxi-bearer-0123456789abcdef';
const TURN_TOKEN_SECRET = randomBytes(32).toString('hex');
const GERMAN = 'Wie ist der Status meines Taxis?';
const SPANISH = '¿Cuál es el status de mi taxi? Quiero saberlo.';

/** The languages the skill's tool was called in, as its handler saw them. */
const heard: string[] = [];
const taxi = defineSkill({
  code: 'taxi',
  version: '1.0.0',
  defaultLocale: 'en',
  tools: {
    status: {
      description: "The status of the caller's taxi ride, and the language it was asked in",
      annotations: { readOnlyHint: true },
      input: { ride: z.string().optional() },
      handler: (_input, ctx) => {
        heard.push(ctx.language);
        return { language: ctx.language };
      },
    },
    // An action (no readOnlyHint): a widget visitor confirms it before it runs.
    bestellen: {
      description: 'Orders a taxi',
      input: { destination: z.string().optional() },
      handler: (_input, ctx) => {
        heard.push(ctx.language);
        return { message: `ordered (${ctx.language})` };
      },
    },
  },
});
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1' } });
let skill: RunningSkill;
const mcpClients: Client[] = [];

beforeAll(async () => {
  skill = await startSkill(taxi, { port: 0, bearer: BEARER, turnTokenSecret: TURN_TOKEN_SECRET, log: quiet });
  expect((await ctx.api('skills/register/', { body: { url: skill.url, bearer: BEARER, turn_token_secret: TURN_TOKEN_SECRET } })).status).toBe(201);
  expect((await ctx.api('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'taxi' } })).status).toBe(200);
  for (const role of ['admin', 'public']) expect((await ctx.api('grants/create/', { body: { role, capability: 'taxi.status' } })).status).toBe(201);
  expect((await ctx.api('grants/create/', { body: { role: 'public', capability: 'taxi.bestellen' } })).status).toBe(201);
});
afterAll(async () => {
  await Promise.all(mcpClients.map((client) => client.close()));
  await skill?.close();
});

/** One visitor turn on the widget's chat endpoint; the reply's text and how it ended. */
async function chat(body: Record<string, unknown>): Promise<{ status: number; text: string; last: string | undefined; actionId: string | undefined }> {
  const response = await fetch(`${ctx.platform.url}/v1/agents/${ctx.agentId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify(body),
  });
  const events = sseMessages(await response.text());
  const text = events
    .filter((event) => event.event === 'delta')
    .map((event) => (JSON.parse(event.data) as { text: string }).text)
    .join('');
  const confirm = events.find((event) => event.event === 'confirm');
  return {
    status: response.status,
    text,
    last: events.at(-1)?.event,
    actionId: confirm ? (JSON.parse(confirm.data) as { actionId: string }).actionId : undefined,
  };
}
const visitor = () => ({ conversationId: crypto.randomUUID(), visitorId: crypto.randomUUID(), locale: 'en' });

describe('the conversation language reaches skills and the answer on every door', () => {
  it('widget chat: a German question in an English interface on an English browser', async () => {
    heard.length = 0;
    const reply = await chat({ ...visitor(), language: 'en-US', messages: [{ role: 'user', content: GERMAN }] });
    expect([reply.status, reply.last]).toEqual([200, 'done']);
    expect(heard).toEqual(['de']);
    expect(reply.text).toBe('Offline-Demomodell: Ich habe taxi__status verwendet: language: de.');
  });

  it("widget chat: a message too short to tell stays in the conversation's language, else takes the browser's", async () => {
    const who = visitor();
    const first = await chat({ ...who, messages: [{ role: 'user', content: GERMAN }] });
    const thanks = await chat({
      ...who,
      language: 'es-ES',
      messages: [
        { role: 'user', content: GERMAN },
        { role: 'assistant', content: first.text },
        { role: 'user', content: 'ok' },
      ],
    });
    expect(thanks.text).toMatch(/^Offline-Demomodell: Ich habe Ihre Nachricht gelesen \("ok"\)/);
    const newcomer = await chat({ ...visitor(), language: 'es-ES', messages: [{ role: 'user', content: 'ok' }] });
    expect(newcomer.text).toMatch(/^Modelo de demostración sin conexión: He leído su mensaje \("ok"\)/);
  });

  it('widget chat: an action the visitor confirms runs in the language of the turn that asked for it', async () => {
    heard.length = 0;
    const who = visitor();
    const asked = await chat({ ...who, messages: [{ role: 'user', content: 'Bitte ein Taxi bestellen, zum Hauptbahnhof.' }] });
    expect(asked.actionId).toBeDefined();
    expect(heard).toEqual([]);
    // The decision carries no message to tell a language from: the stored action keeps its turn's.
    const done = await chat({ ...who, actionId: asked.actionId, confirm: true });
    expect(heard).toEqual(['de']);
    expect(done.text).toBe('ordered (de)');
  });

  it('REST agents/command: a German instruction', async () => {
    heard.length = 0;
    const run = await waitForRun(ctx.api, await command(ctx.api, { agent_id: ctx.agentId, instruction: GERMAN }));
    expect(run.status).toBe('completed');
    expect(heard).toEqual(['de']);
    expect(run.output).toMatchObject({ result: 'ok', summary: 'Offline-Demomodell: Ich habe taxi__status verwendet: language: de.' });
  });

  it('MCP ask_agent (official MCP client): a Spanish instruction', async () => {
    heard.length = 0;
    const key = await ctx.api<{ secret: string }>('connections/key_create/', { body: { name: 'languages', scopes: ['agents:read', 'agents:ask'] } });
    expect(key.status).toBe(201);
    const client = new Client({ name: 'languages-test', version: '1.0.0' });
    mcpClients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', ctx.platform.url), { authProvider: { token: async () => key.body.data.secret } }));
    const asked = await client.callTool({ name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction: SPANISH, wait_seconds: 30 } });
    expect(asked.isError).toBeFalsy();
    expect(heard).toEqual(['es']);
    expect(asked.structuredContent).toMatchObject({
      status: 'completed',
      result_text: 'Modelo de demostración sin conexión: He usado taxi__status: language: es.',
    });
  });
});

describe("an agent's locale", () => {
  it('takes any conversation language, stored normalized, and refuses anything else with the field named', async () => {
    const update = (locale: string) => ctx.api('agents/update/', { body: { agent_id: ctx.agentId, locale } });
    const refused = await update('xx');
    expect([refused.status, refused.body.error?.code, refused.body.error?.field]).toEqual([400, 'VALIDATION_ERROR', 'locale']);
    expect((await update('PT_br')).status).toBe(200);
    const agent = await ctx.api<{ agent: { locale: string } }>('agents/get/', { query: { agent_id: ctx.agentId } });
    expect(agent.body.data.agent.locale).toBe('pt-BR');
  });

  it('is the language of a message nothing else tells, and reaches the skill normalized', async () => {
    heard.length = 0;
    expect((await ctx.api('agents/update/', { body: { agent_id: ctx.agentId, locale: 'de' } })).status).toBe(200);
    const reply = await chat({ ...visitor(), messages: [{ role: 'user', content: 'taxi status' }] });
    expect(heard).toEqual(['de']);
    expect(reply.text).toBe('Offline-Demomodell: Ich habe taxi__status verwendet: language: de.');
  });
});
