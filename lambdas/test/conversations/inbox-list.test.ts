import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_LIMITS } from '@service/shared/live-conversation';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { openEventStream } from '../support/sse';
import { localChatUrl, widgetVisitor } from '../support/widget-visitor';

// The inbox list a teammate triages without opening a row (issue 38, item 7): conversations/list and the inbox
// stream's `conversation` rows carry the last message's first line (`preview`) and why it waits (`handoff`), kept on
// the conversation as each entry is written, through real HTTP.

const ctx = usePlatform();
let ownerId = '';
beforeAll(async () => {
  const members = await ctx.api<{ members: { user_id: string }[] }>('members/list');
  ownerId = members.body.data.members[0]!.user_id;
});

type Row = { id: string; preview: { role: string; text: string; at: string } | null; handoff: { reason: string; summary: string } | null; handler: string };
const visitor = () => widgetVisitor(localChatUrl(ctx.platform.url, ctx.agentId));

async function listed(conversationId: string): Promise<Row> {
  const page = await ctx.api<{ conversations: Row[] }>('conversations/list', { query: { agent_id: ctx.agentId, limit: '100' } });
  expect(openApiProblems('conversationsList', page as ApiResponse<unknown>)).toEqual([]);
  const row = page.body.data.conversations.find((conversation) => conversation.id === conversationId);
  expect(row, 'listed').toBeDefined();
  return row!;
}

const reply = (conversationId: string, text: string) => ctx.api('conversations/reply', { body: { conversation_id: conversationId, text } });

describe('the inbox list', () => {
  let stream: ReturnType<typeof openEventStream>;
  beforeAll(async () => {
    stream = openEventStream(`${ctx.platform.apiBaseUrl}/conversations/inbox_stream?agent_id=${ctx.agentId}`, { 'x-service-api-key': ctx.key });
    await stream.waitFor(() => stream.events.some((event) => event.event === 'ready'));
  });
  afterAll(() => stream?.drop());
  const pushed = (conversationId: string): Row[] =>
    stream.events
      .filter((event) => event.event === 'conversation')
      .map((event) => JSON.parse(event.data) as Row)
      .filter((row) => row.id === conversationId);

  it('shows the last message’s first line, as plain text, and why it waits: in the list, the inbox stream and conversations/get', async () => {
    const ada = visitor();
    expect((await ctx.api('conversations/list', { query: { agent_id: ctx.agentId } })).status).toBe(200);
    const asked = await ada.say('I want to talk to a human');
    // The agent's answer is the last message; the agent's summary says why it waits.
    const first = await listed(ada.conversationId);
    expect(first.preview).toMatchObject({ role: 'assistant', text: asked.text.split('\n')[0]!.trim() });
    expect(first.handoff).toMatchObject({ summary: 'The visitor asked for a person: "I want to talk to a human"' });
    expect(first.handler).toBe('people');

    // A teammate's reply: its first line only, markup kept as text, control and bidi characters gone, cut to the limit.
    expect((await ctx.api('conversations/assign', { body: { conversation_id: ada.conversationId, user_id: ownerId } })).status).toBe(200);
    const long = `<b>Hello</b>\u202e \u0007there ${'x'.repeat(300)}`;
    expect((await reply(ada.conversationId, `\n\n  ${long}\nSecond line`)).status).toBe(201);
    const replied = await listed(ada.conversationId);
    expect(replied.preview!.role).toBe('teammate');
    expect(replied.preview!.text.startsWith('<b>Hello</b> there xxx')).toBe(true);
    expect([...replied.preview!.text]).toHaveLength(LIVE_LIMITS.previewChars);
    expect(replied.preview!.text.endsWith('…')).toBe(true);
    expect(replied.preview!.text).not.toContain('\u0007');
    expect(replied.preview!.text).not.toMatch(/\u202e|Second line/);

    // An internal note is never the preview; the visitor's next message is.
    expect((await ctx.api('conversations/note', { body: { conversation_id: ada.conversationId, text: 'VIP customer' } })).status).toBe(201);
    expect((await listed(ada.conversationId)).preview!.role).toBe('teammate');
    await ada.say('Thanks, where is my order #1234?\nIt was due Monday.');
    const answered = await listed(ada.conversationId);
    expect(answered.preview).toMatchObject({ role: 'user', text: 'Thanks, where is my order #1234?' });

    // The inbox stream's row is the same summary: the preview as it is after the change it reports.
    await stream.waitFor(() => pushed(ada.conversationId).at(-1)?.preview?.text === 'Thanks, where is my order #1234?');
    expect(pushed(ada.conversationId).some((row) => row.preview?.text === 'VIP customer')).toBe(false);
    const got = await ctx.api<{ conversation: Row; messages: { role: string; at: string }[] }>('conversations/get', {
      query: { conversation_id: ada.conversationId },
    });
    expect(got.body.data.conversation.preview).toEqual(answered.preview);
    expect(answered.preview!.at).toBe(got.body.data.messages.filter((message) => message.role === 'user').at(-1)!.at);
  });

  it('keeps the preview of the last entry when teammates write at once', async () => {
    const bo = visitor();
    await bo.say('Hello');
    expect((await ctx.api('conversations/assign', { body: { conversation_id: bo.conversationId, user_id: ownerId } })).status).toBe(200);
    const texts = Array.from({ length: 6 }, (_, index) => `reply ${index}`);
    expect((await Promise.all(texts.map((text) => reply(bo.conversationId, text)))).map((answer) => answer.status)).toEqual(texts.map(() => 201));
    const got = await ctx.api<{ messages: { role: string; text: string }[] }>('conversations/get', { query: { conversation_id: bo.conversationId } });
    const last = got.body.data.messages.filter((message) => message.role === 'teammate').at(-1)!;
    expect((await listed(bo.conversationId)).preview).toMatchObject({ role: 'teammate', text: last.text });
  });
});
