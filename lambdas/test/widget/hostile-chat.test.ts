import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { startTestPlatform } from '../support/platform';
import { createWidgetChatHandler } from '../../src/surfaces/widget/chat-handler';
import { toApiGatewayEvent } from '../../src/entries/local/lambda-event';
import { resolveModel } from '../../src/infra/model';
import { HOSTILE, startHostileModel, type HostileModel } from './hostile-model';

// The chat endpoint against a hostile OpenAI-compatible model on loopback, and the request guards of issue 9.

let model: HostileModel;
let platform: RunningPlatform;
beforeAll(async () => {
  model = await startHostileModel();
  platform = await startTestPlatform({ env: { MODEL: model.setting } });
});
afterAll(async () => {
  await platform?.stop();
  await model?.close();
});

const LOCAL = 'http://localhost:3000';
const chatUrl = () => `${platform.url}/v1/agents/${platform.demo.agentId}/chat`;
const body = (content: string) => ({
  conversationId: crypto.randomUUID(),
  visitorId: crypto.randomUUID(),
  locale: 'en',
  messages: [{ role: 'user', content }],
});
const post = (content: string, headers: Record<string, string> = { origin: LOCAL }) =>
  fetch(chatUrl(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body(content)) });

function parse(text: string): { event: string; data: Record<string, unknown> }[] {
  const seen: { event: string; data: Record<string, unknown> }[] = [];
  createParser({ onEvent: (event) => seen.push({ event: event.event ?? 'message', data: JSON.parse(event.data) }) }).feed(text);
  return seen;
}

describe('a hostile model', () => {
  it("asks for ten navigations: the reply carries one, and none to a site that is not the agent's", async () => {
    const seen = parse(await (await post('please navigate everywhere')).text());
    // evil.example is neither a retrieved passage nor the agent's own site: only the path of this site is opened.
    expect(seen.filter((event) => event.event === 'navigate').map((event) => event.data)).toEqual([{ href: HOSTILE.navigations[1] }]);
    expect(seen.at(-1)?.event).toBe('done');
  });

  it('streams 5,000 characters: the reply stops at the message limit, so it can be sent back as history', async () => {
    const seen = parse(await (await post('a long answer please')).text());
    const reply = seen
      .filter((event) => event.event === 'delta')
      .map((event) => event.data.text)
      .join('');
    expect(reply).toHaveLength(CHAT_LIMITS.messageChars);
    expect(seen.at(-1)?.event).toBe('done');
    const next = await fetch(chatUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: LOCAL },
      body: JSON.stringify({
        ...body('long'),
        messages: [
          { role: 'user', content: 'long' },
          { role: 'assistant', content: reply },
          { role: 'user', content: 'thanks' },
        ],
      }),
    });
    expect(next.status).toBe(200);
  });

  it('never finishes: the server ends the reply with REPLY_TIMEOUT and keeps the connection alive meanwhile', async () => {
    const handler = createWidgetChatHandler(platform.deps, { model: resolveModel(model.setting, {}), replyMs: 600 });
    const event = toApiGatewayEvent(
      { method: 'POST', headers: { 'content-type': 'application/json', origin: LOCAL }, socket: { remoteAddress: '10.9.9.9' } } as never,
      new URL(chatUrl()),
      Buffer.from(JSON.stringify(body('hang'))),
    );
    let text = '';
    const started = Date.now();
    await handler(
      event,
      { start: () => undefined, write: (chunk) => void (text += chunk), end: () => undefined, signal: new AbortController().signal },
      {} as never,
    );
    expect(Date.now() - started).toBeLessThan(CHAT_LIMITS.replyMs);
    expect(parse(text).at(-1)).toEqual({ event: 'error', data: { code: 'REPLY_TIMEOUT', message: expect.any(String) } });
  });
});

describe('request guards of the widget routes', () => {
  it('answers 405 with Allow on both routes', async () => {
    const config = await fetch(`${platform.url}/v1/agents/${platform.demo.agentId}/widget-config`, { method: 'DELETE' });
    expect(config.status).toBe(405);
    expect(config.headers.get('allow')).toBe('GET, OPTIONS');
    const chat = await fetch(chatUrl(), { method: 'GET', headers: { origin: LOCAL } });
    expect(chat.status).toBe(405);
    expect(chat.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await chat.json()).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('refuses a chat request without Origin unless the agent allows server-side use', async () => {
    const refused = await post('hello', {});
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('ORIGIN_NOT_ALLOWED');
    await platform.deps.store.doc.send(
      new UpdateCommand({
        TableName: platform.deps.store.table('agents'),
        Key: { workspaceId: platform.demo.workspaceId, id: platform.demo.agentId },
        UpdateExpression: 'SET widgetServerSide = :on',
        ExpressionAttributeValues: { ':on': true },
      }),
    );
    try {
      const allowed = await post('hello', {});
      expect(allowed.status).toBe(200);
      expect(parse(await allowed.text()).at(-1)?.event).toBe('done');
    } finally {
      await platform.deps.store.doc.send(
        new UpdateCommand({
          TableName: platform.deps.store.table('agents'),
          Key: { workspaceId: platform.demo.workspaceId, id: platform.demo.agentId },
          UpdateExpression: 'REMOVE widgetServerSide',
        }),
      );
    }
  });
});
