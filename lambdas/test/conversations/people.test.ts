import { verify } from '@service/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { openEventStream } from '../support/sse';
import { liveMessages, localChatUrl, WIDGET_ORIGIN, widgetVisitor } from '../support/widget-visitor';
import { createWorkspace } from '../support/workspaces';
import { subscribe } from '../webhooks/helpers';
import { startReceiver, type Receiver } from '../webhooks/receiver';

// People in the conversation (issue 29) through real HTTP: the agent hands a visitor to people, a teammate claims and
// replies over REST as an integrator would, both sides get it pushed (SSE, resumable), notes stay with the teammates,
// the teammate hands back and the agent answers again; conversation.* webhooks are signed and typed.

const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1' } });
let hook: Receiver;
let secret = '';
let ownerId = '';

beforeAll(async () => {
  hook = await startReceiver();
  secret = (await subscribe(ctx.api, hook.url, ['conversation.handoff_requested', 'conversation.message_created', 'conversation.closed'])).secret;
  const members = await ctx.api<{ members: { user_id: string; display_name: string }[] }>('members/list');
  ownerId = members.body.data.members[0]!.user_id;
});
afterAll(() => hook?.close());

const url = (route: string) => `${ctx.platform.url}/v1/agents/${ctx.agentId}/${route}`;

const visitor = () => widgetVisitor(localChatUrl(ctx.platform.url, ctx.agentId));

const teammateStream = (conversationId: string, headers: Record<string, string> = {}) =>
  openEventStream(`${ctx.platform.apiBaseUrl}/conversations/stream?conversation_id=${conversationId}`, { 'x-service-api-key': ctx.key, ...headers });

const messagesOf = liveMessages;

const webhook = async (event: string, match: (data: Record<string, unknown>) => boolean) => {
  await hook.waitFor((requests) => requests.some((request) => request.event.event === event && match(request.event.data)));
  const request = hook.requests.find((candidate) => candidate.event.event === event && match(candidate.event.data))!;
  return verify(request.rawBody, request.headers['x-service-signature'] as string, secret, { now: new Date(request.at) });
};

describe('people in the conversation', () => {
  it('hands off when the visitor asks for a human, a teammate claims and replies live, notes stay internal, and the agent answers again after the handback', async () => {
    const ada = visitor();
    const first = await ada.say('I want to talk to a human');
    expect(first.handoff).toEqual({ handler: 'people', assignee: null });
    expect(first.text).toContain('a person from our team');
    const requested = await webhook('conversation.handoff_requested', (data) => data.conversation_id === ada.conversationId);
    expect(requested.data).toMatchObject({
      reason: 'agent',
      handler: 'people',
      assignee: null,
      summary: 'The visitor asked for a person: "I want to talk to a human"',
      visitor: { id: ada.visitorId },
    });

    const live = ada.live();
    const team = teammateStream(ada.conversationId);
    await live.waitFor(() => live.events.some((event) => event.event === 'state'));
    expect(JSON.parse(live.events.find((event) => event.event === 'state')!.data)).toEqual({ handler: 'people', assignee: null });

    // While people have it, the agent says nothing: the message is stored and pushed to the teammates.
    const waiting = await ada.say('Are you there?');
    expect(waiting.text).toBe('');
    expect(waiting.handoff).toEqual({ handler: 'people', assignee: null });
    await team.waitFor(() => messagesOf(team).some((message) => message.text === 'Are you there?'));
    await webhook('conversation.message_created', (data) => (data.message as { text: string }).text === 'Are you there?');

    const claimed = await ctx.api<{ conversation: Record<string, unknown> }>('conversations/assign', {
      body: { conversation_id: ada.conversationId, user_id: ownerId },
    });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(openApiProblems('conversationsAssign', claimed as ApiResponse<unknown>)).toEqual([]);
    const owner = claimed.body.data.conversation.assignee as { id: string; name: string };
    expect(owner.id).toBe(ownerId);

    const reply = await ctx.api<{ message: { seq: number; role: string; author: { name: string } } }>('conversations/reply', {
      body: { conversation_id: ada.conversationId, text: 'Hi, <b>I am here</b> to help' },
      headers: { 'idempotency-key': `reply-${ada.conversationId}` },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(openApiProblems('conversationsReply', reply as ApiResponse<unknown>)).toEqual([]);
    expect(reply.body.data.message).toMatchObject({ role: 'teammate', author: { name: owner.name } });
    // A retry with the same key is the same message, stored once.
    const replay = await ctx.api<{ message: { seq: number } }>('conversations/reply', {
      body: { conversation_id: ada.conversationId, text: 'Hi, <b>I am here</b> to help' },
      headers: { 'idempotency-key': `reply-${ada.conversationId}` },
    });
    expect(replay.body.data.message.seq).toBe(reply.body.data.message.seq);

    const note = await ctx.api('conversations/note', { body: { conversation_id: ada.conversationId, text: 'VIP customer, be nice' } });
    expect(note.status).toBe(201);
    expect((await ctx.api('conversations/typing', { body: { conversation_id: ada.conversationId } })).status).toBe(200);

    await live.waitFor(() => live.events.some((event) => event.event === 'typing'));
    await live.waitFor(() => messagesOf(live).some((message) => message.role === 'teammate'));
    await team.waitFor(() => messagesOf(team).some((message) => message.role === 'note'));
    const seen = messagesOf(live);
    expect(seen.find((message) => message.event === 'joined')).toMatchObject({ role: 'event', author: { name: owner.name } });
    // The teammate's text arrives as text, markup and all; the visitor never gets the note.
    expect(seen.find((message) => message.role === 'teammate')).toMatchObject({ text: 'Hi, <b>I am here</b> to help', author: { name: owner.name } });
    expect(seen.filter((message) => message.role === 'teammate')).toHaveLength(1);
    expect(seen.some((message) => message.role === 'note' || message.text.includes('VIP'))).toBe(false);
    expect(live.events.map((event) => event.data).join('\n')).not.toContain('VIP');
    // Ids are the entries' seqs, in order.
    expect(seen.map((message) => Number(message.id))).toEqual(seen.map((message) => message.seq));
    expect([...seen.map((message) => message.seq)].sort((a, b) => a - b)).toEqual(seen.map((message) => message.seq));

    const back = await ctx.api<{ conversation: { handler: string } }>('conversations/handback', { body: { conversation_id: ada.conversationId } });
    expect(back.body.data.conversation.handler).toBe('agent');
    await live.waitFor(() => messagesOf(live).some((message) => message.event === 'handed_back'));
    const again = await ada.say('What does it cost?');
    expect(again.handoff).toBeUndefined();
    expect(again.text).toMatch(/^Offline demo model: .+/);

    const transcript = await ctx.api<{ messages: { role: string; text: string }[] }>('conversations/get', { query: { conversation_id: ada.conversationId } });
    expect(openApiProblems('conversationsGet', transcript as ApiResponse<unknown>)).toEqual([]);
    expect(transcript.body.data.messages.map((message) => message.role)).toEqual([
      'user',
      'event',
      'assistant',
      'user',
      'event',
      'teammate',
      'note',
      'event',
      'user',
      'assistant',
    ]);
    live.drop();
    team.drop();
  });

  it('resumes a dropped stream with Last-Event-ID: exactly the entries after it, in order', async () => {
    const bo = visitor();
    await bo.say('Hello');
    await ctx.api('conversations/assign', { body: { conversation_id: bo.conversationId, user_id: ownerId } });
    const first = bo.live();
    await first.waitFor(() => messagesOf(first).some((message) => message.event === 'joined'));
    const lastId = messagesOf(first).at(-1)!.id!;
    first.drop();
    for (const text of ['one', 'two', 'three'])
      expect((await ctx.api('conversations/reply', { body: { conversation_id: bo.conversationId, text } })).status).toBe(201);
    const resumed = bo.live({ 'last-event-id': lastId });
    await resumed.waitFor(() => messagesOf(resumed).length >= 3);
    expect(messagesOf(resumed).map((message) => message.text)).toEqual(['one', 'two', 'three']);
    resumed.drop();
  });

  it("pushes the workspace's inbox: a new conversation, its entries and changes of hands, to its own workspace only, resumed with Last-Event-ID", async () => {
    const inboxUrl = (query: string) => `${ctx.platform.apiBaseUrl}/conversations/inbox_stream${query}`;
    type Row = { seq: number; id: string; messages: number; handler: string; assignee: { id: string } | null; unread: number | null };
    const rowsOf = (stream: ReturnType<typeof openEventStream>, conversationId: string): Row[] =>
      stream.events
        .filter((event) => event.event === 'conversation')
        .map((event) => ({ seq: Number(event.id), ...(JSON.parse(event.data) as Omit<Row, 'seq'>) }))
        .filter((row) => row.id === conversationId);
    const other = await createWorkspace(ctx.platform.deps);
    const foreign = openEventStream(inboxUrl(''), { 'x-service-api-key': other.apiKey });
    const inbox = openEventStream(inboxUrl(`?agent_id=${ctx.agentId}`), { 'x-service-api-key': ctx.key });
    await Promise.all([foreign, inbox].map((stream) => stream.waitFor(() => stream.events.some((event) => event.event === 'ready'))));

    const dee = visitor();
    await dee.say('Hello');
    // The new conversation, then its two entries (the visitor's and the agent's), without reading the list again.
    await inbox.waitFor(() => rowsOf(inbox, dee.conversationId).some((row) => row.messages === 2));
    expect(rowsOf(inbox, dee.conversationId).at(-1)).toMatchObject({ handler: 'agent', assignee: null, unread: null });
    const lastId = inbox.events.at(-1)!.id!;
    inbox.drop();

    // Missed while away: a teammate claims it, replies, closes it.
    expect((await ctx.api('conversations/assign', { body: { conversation_id: dee.conversationId, user_id: ownerId } })).status).toBe(200);
    expect((await ctx.api('conversations/reply', { body: { conversation_id: dee.conversationId, text: 'one' } })).status).toBe(201);
    expect((await ctx.api('conversations/close', { body: { conversation_id: dee.conversationId } })).status).toBe(200);
    const resumed = openEventStream(inboxUrl(`?agent_id=${ctx.agentId}`), { 'x-service-api-key': ctx.key, 'last-event-id': lastId });
    await resumed.waitFor(() => rowsOf(resumed, dee.conversationId).some((row) => row.handler === 'closed'));
    // Exactly what came after it: in order, none twice, no fresh start; the conversation as it is now.
    const ids = resumed.events.map((event) => Number(event.id));
    expect(resumed.events.some((event) => event.event === 'ready')).toBe(false);
    expect(ids.every((id) => id > Number(lastId))).toBe(true);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    expect(rowsOf(resumed, dee.conversationId).at(-1)).toMatchObject({ handler: 'closed', assignee: null, messages: 5 });
    // Live again after the catch-up: the next change comes on the resumed stream.
    expect((await ctx.api('conversations/reopen', { body: { conversation_id: dee.conversationId } })).status).toBe(200);
    await resumed.waitFor(() => rowsOf(resumed, dee.conversationId).some((row) => row.handler === 'people' && row.assignee === null));
    resumed.drop();

    // Another workspace hears nothing of it; an agent of another workspace is refused before any event.
    expect(foreign.events.map((event) => event.event)).toEqual(['ready']);
    foreign.drop();
    const stranger = await fetch(inboxUrl(`?agent_id=${other.agentId}`), { headers: { 'x-service-api-key': ctx.key } });
    expect([stranger.status, ((await stranger.json()) as { error: { code: string } }).error.code]).toEqual([404, 'AGENT_NOT_FOUND']);
  });

  it('keeps a conversation to its visitor and workspace, and refuses a closed or unknown one with its code', async () => {
    const cy = visitor();
    await cy.say('Hello');
    const stranger = await fetch(`${url('live')}?conversationId=${cy.conversationId}`, {
      headers: { origin: WIDGET_ORIGIN, 'x-visitor-id': crypto.randomUUID() },
    });
    expect(stranger.status).toBe(404);
    expect(((await stranger.json()) as { error: { code: string } }).error.code).toBe('CONVERSATION_NOT_FOUND');
    const idAlone = await fetch(`${url('live')}?conversationId=${cy.conversationId}`, { headers: { origin: WIDGET_ORIGIN } });
    expect(idAlone.status).toBe(400);

    // Another company's key finds nothing: not the transcript, not the stream, no reply.
    const other = await createWorkspace(ctx.platform.deps);
    for (const [path, body] of [
      ['conversations/get', undefined],
      ['conversations/reply', { conversation_id: cy.conversationId, text: 'Hi' }],
      ['conversations/assign', { conversation_id: cy.conversationId }],
    ] as const) {
      const foreign = await ctx.api(path, { key: other.apiKey, ...(body ? { body } : { query: { conversation_id: cy.conversationId } }) });
      expect([path, foreign.status, foreign.body.error?.code]).toEqual([path, 404, 'CONVERSATION_NOT_FOUND']);
    }
    const foreignStream = await fetch(`${ctx.platform.apiBaseUrl}/conversations/stream?conversation_id=${cy.conversationId}`, {
      headers: { 'x-service-api-key': other.apiKey },
    });
    expect(foreignStream.status).toBe(404);

    // An API key reads for nobody: no unread count, no read marker.
    expect(
      (await ctx.api<{ conversation: { unread: number | null } }>('conversations/get', { query: { conversation_id: cy.conversationId } })).body.data
        .conversation.unread,
    ).toBeNull();
    const read = await ctx.api('conversations/read', { body: { conversation_id: cy.conversationId, seq: 1 } });
    expect([read.status, read.body.error?.code]).toEqual([400, 'VALIDATION_ERROR']);

    const unknown = await ctx.api('conversations/reply', { body: { conversation_id: crypto.randomUUID(), text: 'Hello?' } });
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
    // An API key replies as the member the conversation is assigned to: nobody claimed it yet.
    const unclaimed = await ctx.api('conversations/reply', { body: { conversation_id: cy.conversationId, text: 'Hello?' } });
    expect([unclaimed.status, unclaimed.body.error?.code]).toEqual([400, 'VALIDATION_ERROR']);

    const closed = await ctx.api<{ conversation: { handler: string } }>('conversations/close', { body: { conversation_id: cy.conversationId } });
    expect(closed.body.data.conversation.handler).toBe('closed');
    const event = await webhook('conversation.closed', (data) => data.conversation_id === cy.conversationId);
    expect(event.data).toMatchObject({ handler: 'closed', closed_by: null });
    const late = await ctx.api('conversations/reply', { body: { conversation_id: cy.conversationId, text: 'Too late' } });
    expect([late.status, late.body.error?.code]).toEqual([409, 'CONVERSATION_CLOSED']);
    expect((await ctx.api('conversations/assign', { body: { conversation_id: cy.conversationId, user_id: ownerId } })).status).toBe(409);

    // Reopened: it waits for a teammate again, the visitor's stream says so, and a teammate may take it once more.
    const reopened = await ctx.api<{ conversation: { handler: string; assignee: unknown } }>('conversations/reopen', {
      body: { conversation_id: cy.conversationId },
    });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(openApiProblems('conversationsReopen', reopened as ApiResponse<unknown>)).toEqual([]);
    expect(reopened.body.data.conversation).toMatchObject({ handler: 'people', assignee: null });
    const again = await ctx.api<{ conversation: { handler: string } }>('conversations/reopen', { body: { conversation_id: cy.conversationId } });
    expect(again.body.data.conversation.handler).toBe('people');
    const waiting = await ctx.api<{ messages: { event: string | null }[] }>('conversations/get', { query: { conversation_id: cy.conversationId } });
    expect(waiting.body.data.messages.filter((message) => message.event === 'reopened')).toHaveLength(1);
    const live = cy.live();
    await live.waitFor(() => messagesOf(live).some((message) => message.event === 'reopened'));
    live.drop();
    expect((await ctx.api('conversations/assign', { body: { conversation_id: cy.conversationId, user_id: ownerId } })).status).toBe(200);
    const foreignReopen = await ctx.api('conversations/reopen', { key: other.apiKey, body: { conversation_id: cy.conversationId } });
    expect([foreignReopen.status, foreignReopen.body.error?.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
  });

  it("keeps the visitor's page: where the conversation started, then where it passed to people; only an http(s) address of bounded length", async () => {
    const page = (url: string) => ({ page: { url, title: 'Shop' } });
    const summary = async (conversationId: string) =>
      (await ctx.api<{ conversation: { page: string | null } }>('conversations/get', { query: { conversation_id: conversationId } })).body.data.conversation;
    const eve = visitor();
    await eve.say('Hello', page('https://shop.example/pricing?plan=pro'));
    expect((await summary(eve.conversationId)).page).toBe('https://shop.example/pricing?plan=pro');
    await eve.say('Still here', page('https://shop.example/elsewhere'));
    expect((await summary(eve.conversationId)).page).toBe('https://shop.example/pricing?plan=pro');
    await eve.say('A person, please', { ...page('https://user:secret@shop.example/checkout'), handoff: true });
    expect((await summary(eve.conversationId)).page).toBe('https://shop.example/checkout');

    // Not an http(s) address: the conversation goes on without it.
    for (const bad of ['javascript:alert(1)', 'not a url', 'https://shop.example/\t/evil.example']) {
      const fay = visitor();
      expect((await fay.say('Hello', page(bad))).events.some((event) => event.name === 'done')).toBe(true);
      expect((await summary(fay.conversationId)).page).toBe(bad.startsWith('https:') ? 'https://shop.example//evil.example' : null);
    }
    // Past the length limit: the request is refused on its field.
    const long = await fetch(url('chat'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: WIDGET_ORIGIN },
      body: JSON.stringify({
        conversationId: crypto.randomUUID(),
        visitorId: crypto.randomUUID(),
        messages: [{ role: 'user', content: 'Hi' }],
        ...page(`https://shop.example/${'a'.repeat(2000)}`),
      }),
    });
    expect([long.status, ((await long.json()) as { error: { code: string; field: string } }).error]).toMatchObject([
      400,
      { code: 'VALIDATION_ERROR', field: 'page.url' },
    ]);
  });

  it("hands off at once on a keyword of the agent and on the widget's Talk to a person", async () => {
    const updated = await ctx.api<{ agent: { handoff: { enabled: boolean; keywords: string[] } } }>('agents/update', {
      body: { agent_id: ctx.agentId, handoff: { keywords: ['refund'] } },
    });
    expect(updated.body.data.agent.handoff).toEqual({ enabled: true, keywords: ['refund'] });
    const keyword = await visitor().say('I need a REFUND for my order');
    expect(keyword.handoff).toEqual({ handler: 'people', assignee: null });
    expect(keyword.text).toBe('');
    const asked = await visitor().say('Talk to a person', { handoff: true });
    expect(asked.handoff).toEqual({ handler: 'people', assignee: null });
    await ctx.api('agents/update', { body: { agent_id: ctx.agentId, handoff: { enabled: false, keywords: [] } } });
    const off = await visitor().say('I want to talk to a human');
    expect(off.handoff).toBeUndefined();
    await ctx.api('agents/update', { body: { agent_id: ctx.agentId, handoff: { enabled: true } } });
  });
  it("lists an agent's conversations by the inbox's tabs: waiting, closed, all, page after page; `mine` needs a session", async () => {
    const [withAgent, waiting, claimed, closed] = [visitor(), visitor(), visitor(), visitor()];
    await withAgent.say('Hello');
    for (const person of [waiting, claimed, closed]) await person.say('Talk to a person', { handoff: true });
    await ctx.api('conversations/assign', { body: { conversation_id: claimed.conversationId, user_id: ownerId } });
    await ctx.api('conversations/close', { body: { conversation_id: closed.conversationId } });

    /** Every conversation a tab lists, one conversation a page (the cursor walks past the ones it does not keep). */
    const tab = async (state: string) => {
      const seen: { id: string; handler: string; assignee: unknown }[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await ctx.api<{ conversations: { id: string; handler: string; assignee: unknown }[]; next_cursor: string | null }>('conversations/list', {
          query: { agent_id: ctx.agentId, limit: '1', state, ...(cursor ? { cursor } : {}) },
        });
        expect(openApiProblems('conversationsList', page as ApiResponse<unknown>)).toEqual([]);
        seen.push(...page.body.data.conversations);
        cursor = page.body.data.next_cursor;
      } while (cursor);
      return seen;
    };
    const ids = (list: { id: string }[]) => list.map((conversation) => conversation.id);
    const mine = [withAgent, waiting, claimed, closed].map((person) => person.conversationId);

    const waitingTab = await tab('waiting');
    expect(waitingTab.every((conversation) => conversation.handler === 'people' && conversation.assignee === null)).toBe(true);
    expect(mine.filter((id) => ids(waitingTab).includes(id))).toEqual([waiting.conversationId]);
    const closedTab = await tab('closed');
    expect(closedTab.every((conversation) => conversation.handler === 'closed')).toBe(true);
    expect(mine.filter((id) => ids(closedTab).includes(id))).toEqual([closed.conversationId]);
    const all = ids(await tab('all'));
    expect(mine.filter((id) => all.includes(id))).toEqual(mine);
    expect(new Set(all).size).toBe(all.length);

    const byKey = await ctx.api('conversations/list', { query: { agent_id: ctx.agentId, state: 'mine' } });
    expect([byKey.status, byKey.body.error?.code]).toEqual([400, 'VALIDATION_ERROR']);
    const unknownTab = await ctx.api('conversations/list', { query: { agent_id: ctx.agentId, state: 'archived' } });
    expect([unknownTab.status, unknownTab.body.error?.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});
