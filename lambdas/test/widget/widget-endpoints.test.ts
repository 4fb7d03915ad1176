import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { startTestPlatform } from '../support/platform';
import { createWidgetChatHandler } from '../../src/surfaces/widget/chat-handler';
import { createOfflineModel } from '@service/offline-model';
import { toApiGatewayEvent } from '../../src/entries/local/lambda-event';
import { originAllowed } from '../../src/infra/http/cors';
import { buildAgent, putAgent, toAgentResponse } from '../../src/domains/agents/agents';
import { WIDGET_AGENT_RATE } from '@service/shared';
import type { Deps } from '../../src/infra/deps';
import { scriptedModel } from '../support/scripted-model';

let platform: RunningPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.stop();
});

const LOCAL = 'http://localhost:3000';
const chatBody = (content: string, extra: Record<string, unknown> = {}) => ({
  conversationId: crypto.randomUUID(),
  visitorId: crypto.randomUUID(),
  locale: 'en',
  messages: [{ role: 'user', content }],
  ...extra,
});

async function events(response: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const seen: { event: string; data: Record<string, unknown> }[] = [];
  const parser = createParser({ onEvent: (event) => seen.push({ event: event.event ?? 'message', data: JSON.parse(event.data) }) });
  parser.feed(await response.text());
  return seen;
}

describe('GET /v1/agents/{agentId}/widget-config', () => {
  it('answers the spec fields with CORS for an allowed origin and cache headers', async () => {
    const response = await fetch(`${platform.url}/v1/agents/${platform.demo.agentId}/widget-config`, { headers: { origin: LOCAL } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(LOCAL);
    expect(response.headers.get('vary')).toBe('Origin');
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const body = await response.json();
    expect(body).toMatchObject({
      agent: { name: expect.any(String), role: expect.any(String), avatarExpressions: ['idle', 'thinking', 'talking'] },
      branding: { companyName: 'Demo Company', primaryColor: expect.stringMatching(/^#/), gradientFrom: expect.any(String), gradientTo: expect.any(String) },
      widget: { showDelay: 2000, teaserDelay: 5000, idleNudgeDelay: 30000, teaserHighlightWord: expect.any(String), locale: 'en' },
    });
    expect(body.agent.avatarUrl).toBe(`${platform.url}/embed/avatar.svg`);
    expect(body.chat.url).toBe(`${platform.url}/v1/agents/${platform.demo.agentId}/chat`);
  });

  it('gives no CORS grant to an origin the agent does not allow, and answers preflight', async () => {
    const other = await fetch(`${platform.url}/v1/agents/${platform.demo.agentId}/widget-config`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${platform.url}/v1/agents/${platform.demo.agentId}/widget-config`, { method: 'OPTIONS', headers: { origin: LOCAL } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('400 for an id that is not a UUID, 404 for an unknown agent', async () => {
    const bad = await fetch(`${platform.url}/v1/agents/not-a-uuid/widget-config`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('VALIDATION_ERROR');
    const unknown = await fetch(`${platform.url}/v1/agents/${crypto.randomUUID()}/widget-config`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe('AGENT_NOT_FOUND');
  });

  it('matches origins exactly or by port wildcard', () => {
    expect(originAllowed('http://localhost:5173', ['http://localhost:*'])).toBe(true);
    expect(originAllowed('http://localhost.evil.example', ['http://localhost:*'])).toBe(false);
    expect(originAllowed('https://shop.example', ['https://shop.example'])).toBe(true);
    expect(originAllowed('https://shop.example.evil', ['https://shop.example'])).toBe(false);
  });
});

describe('POST /v1/agents/{agentId}/chat', () => {
  it('streams the offline model reply as server-sent events and stores the conversation', async () => {
    const body = chatBody('Where is the pricing? Please take me there', { context: { system: ['Visitor came from the pricing ad'], data: { page: 'home' } } });
    const response = await fetch(`${platform.url}/v1/agents/${platform.demo.agentId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: LOCAL },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('access-control-allow-origin')).toBe(LOCAL);
    const seen = await events(response);
    const names = seen.map((event) => event.event);
    expect(names).toContain('navigate');
    expect(names).toContain('uiAction');
    expect(names.filter((name) => name === 'delta').length).toBeGreaterThan(1);
    expect(names.at(-1)).toBe('done');
    const reply = seen
      .filter((event) => event.event === 'delta')
      .map((event) => event.data.text)
      .join('');
    expect(reply).toContain('[Page:Pricing|/pricing]');

    const stored = await platform.deps.store.doc.send(
      new QueryCommand({
        TableName: platform.deps.store.table('conversations'),
        KeyConditionExpression: 'conversationId = :c',
        ExpressionAttributeValues: { ':c': body.conversationId },
      }),
    );
    const items = stored.Items ?? [];
    expect(items.find((item) => item.sk === 'meta')).toMatchObject({ agentId: platform.demo.agentId, visitorId: body.visitorId, messageCount: 2 });
    expect(items.filter((item) => item.sk.startsWith('message#')).map((item) => [item.role, item.content])).toEqual([
      ['user', body.messages[0]!.content],
      ['assistant', reply],
    ]);
  });

  it('rejects malformed requests with VALIDATION_ERROR and foreign origins without model time', async () => {
    const post = (body: unknown, origin = LOCAL) =>
      fetch(`${platform.url}/v1/agents/${platform.demo.agentId}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    for (const bad of [
      'not json',
      { messages: [] },
      chatBody('x', { locale: 'de' }),
      { ...chatBody('hi'), messages: [{ role: 'assistant', content: 'no user turn' }] },
      chatBody('y'.repeat(4001)),
    ]) {
      const response = await post(bad);
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('VALIDATION_ERROR');
    }
    const foreign = await post(chatBody('hello'), 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a conversation id presented by another visitor', async () => {
    const first = chatBody('hello');
    const post = (body: unknown) =>
      fetch(`${platform.url}/v1/agents/${platform.demo.agentId}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: LOCAL },
        body: JSON.stringify(body),
      });
    expect((await post(first)).status).toBe(200);
    const hijack = await post({ ...first, visitorId: crypto.randomUUID() });
    expect(hijack.status).toBe(400);
    expect((await hijack.json()).error.field).toBe('conversationId');
  });

  it('rate-limits per visitor and per agent with 429 RATE_LIMITED and Retry-After', async () => {
    // A fresh agent, so the other tests' messages do not count against its budget.
    const agent = buildAgent(platform.deps, platform.demo.workspaceId, { preset: 'support', allowedOrigins: [LOCAL] });
    await putAgent(platform.deps, agent);
    // A clock pinned mid-minute keeps all five messages in one rate-limit window.
    const pinned = { ...platform.deps, now: () => new Date('2026-11-22T10:00:30Z') };
    const call = pinnedChat(createWidgetChatHandler(pinned, { model: createOfflineModel(), visitorLimitPerMinute: 2, agentLimitPerMinute: 3 }), agent.id);
    expect((await call('10.0.0.1')).status).toBe(200);
    expect((await call('10.0.0.1')).status).toBe(200);
    const visitorLimited = await call('10.0.0.1');
    expect(visitorLimited.status).toBe(429);
    expect(JSON.parse(visitorLimited.text).error.code).toBe('RATE_LIMITED');
    expect(visitorLimited.headers['Retry-After']).toBe('30');
    expect((await call('10.0.0.2')).status).toBe(200); // another visitor; the agent's 3rd message
    expect((await call('10.0.0.3')).status).toBe(429); // the agent's budget is spent
  });

  it("takes the agent's own widget rate; without one a busy site's default", async () => {
    const agent = { ...buildAgent(platform.deps, platform.demo.workspaceId, { preset: 'support', allowedOrigins: [LOCAL] }), widgetRatePerMinute: 10 };
    await putAgent(platform.deps, agent);
    expect(toAgentResponse(agent).widget_rate_per_minute).toBe(10);
    expect(toAgentResponse({ ...agent, widgetRatePerMinute: undefined }).widget_rate_per_minute).toBe(WIDGET_AGENT_RATE.defaultPerMinute);
    const pinned = { ...platform.deps, now: () => new Date('2026-11-22T11:00:30Z') };
    const call = pinnedChat(createWidgetChatHandler(pinned, { model: createOfflineModel() }), agent.id);
    for (let visitor = 1; visitor <= 10; visitor += 1) expect((await call(`10.0.1.${visitor}`)).status).toBe(200);
    const limited = await call('10.0.1.11');
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.text).error.code).toBe('RATE_LIMITED');
  });
});

/** One visitor message from `ip` to the agent through a chat handler built on a pinned clock (one rate-limit window). */
function pinnedChat(handler: ReturnType<typeof createWidgetChatHandler>, agentId: string) {
  return async (ip: string) => {
    const event = toApiGatewayEvent(
      { method: 'POST', headers: { 'content-type': 'application/json', origin: LOCAL }, socket: { remoteAddress: ip } } as never,
      new URL(`http://127.0.0.1/v1/agents/${agentId}/chat`),
      Buffer.from(JSON.stringify(chatBody('hello'))),
    );
    let status = 0;
    let headers: Record<string, string> = {};
    let text = '';
    await handler(
      event,
      { start: (s, h) => ((status = s), (headers = h)), write: (chunk) => void (text += chunk), end: () => undefined, signal: new AbortController().signal },
      {} as never,
    );
    return { status, headers, text };
  };
}

// A widget reply ends its stream with `done` or with `error`, never both: what the answer leaves behind (usage,
// insights) is written after `done`, and a failure there must not reach the visitor as an error after the answer.
/** The platform's deps, except that every write to the `usage` table fails (and is counted). */
function usageFails(deps: Deps): { deps: Deps; failed: () => number } {
  let failed = 0;
  const send = ((command: { input: { TableName?: string } }) => {
    if (command.input.TableName !== deps.store.table('usage')) return deps.store.doc.send(command as never);
    failed += 1;
    return Promise.reject(new Error('injected fault: the usage table is unavailable'));
  }) as Deps['store']['doc']['send'];
  return { deps: { ...deps, store: { ...deps.store, doc: { ...deps.store.doc, send } as Deps['store']['doc'] } }, failed: () => failed };
}

async function chat(deps: Deps, text: string): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const handler = createWidgetChatHandler(deps, { model: scriptedModel([{ text }]) });
  const body = { conversationId: crypto.randomUUID(), visitorId: crypto.randomUUID(), locale: 'en', messages: [{ role: 'user', content: 'Hello there' }] };
  const event = toApiGatewayEvent(
    { method: 'POST', headers: { 'content-type': 'application/json', origin: LOCAL }, socket: { remoteAddress: '10.9.9.8' } } as never,
    new URL(`${platform.url}/v1/agents/${platform.demo.agentId}/chat`),
    Buffer.from(JSON.stringify(body)),
  );
  let stream = '';
  await handler(
    event,
    { start: () => undefined, write: (chunk) => void (stream += chunk), end: () => undefined, signal: new AbortController().signal },
    {} as never,
  );
  const seen: { event: string; data: Record<string, unknown> }[] = [];
  createParser({ onEvent: (parsed) => seen.push({ event: parsed.event ?? 'message', data: JSON.parse(parsed.data) }) }).feed(stream);
  return seen;
}

describe('a widget reply whose follow-ups fail', () => {
  it('ends with done and sends no error after it', async () => {
    // Positive control: the same reply with a working store ends with done.
    expect((await chat(platform.deps, 'All fine.')).map((event) => event.event).filter((name) => name === 'done' || name === 'error')).toEqual(['done']);

    const faulty = usageFails(platform.deps);
    const seen = await chat(faulty.deps, 'Answered all the same.');
    expect(faulty.failed()).toBe(1);
    expect(
      seen
        .filter((event) => event.event === 'delta')
        .map((event) => event.data.text)
        .join(''),
    ).toBe('Answered all the same.');
    expect(seen.map((event) => event.event).filter((name) => name === 'done' || name === 'error')).toEqual(['done']);
  });
});
