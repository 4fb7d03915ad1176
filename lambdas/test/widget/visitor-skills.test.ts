import { describe, expect, it } from 'vitest';
import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import { usePlatform } from '../support/platform';
import { scriptedModel } from '../support/scripted-model';
import { sseJson, sseMessages } from '../support/sse';

// A widget visitor runs skills as the `public` role: nothing until the company grants a capability, and then a
// real-world action only after the visitor's Confirm, performed from the server's own copy of the arguments.

const ORIGIN = 'http://localhost:3000';
const BOOK = 'Book a demo tomorrow at 10';

type Posted = { status: number; events: { event: string; data: Record<string, unknown> }[] };
const visitor = () => ({ conversationId: crypto.randomUUID(), visitorId: crypto.randomUUID(), locale: 'en' });

/** The widget's chat endpoint of a test platform, posted to from an allowed page origin. */
function chatPoster(ctx: ReturnType<typeof usePlatform>) {
  return async (body: Record<string, unknown>): Promise<Posted> => {
    const response = await fetch(`${ctx.platform.url}/v1/agents/${ctx.agentId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify(body),
    });
    const events = sseMessages(await response.text()).map((event) => ({ event: event.event ?? 'message', data: JSON.parse(event.data) }));
    return { status: response.status, events };
  };
}

describe('visitor skills in the widget chat', () => {
  const ctx = usePlatform();
  const post = chatPoster(ctx);
  const ask = (who: ReturnType<typeof visitor>, content: string) => post({ ...who, messages: [{ role: 'user', content }] });
  const eventTitles = async () => (await ctx.api<{ events: { title: string }[] }>('calendar/event_list/')).body.data.events.map((event) => event.title);

  it('offers the public role no skill tool until the company grants one', async () => {
    expect((await ctx.api('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'calendar' } })).status).toBe(200);
    const { status, events } = await ask(visitor(), BOOK);
    expect(status).toBe(200);
    expect(events.map((event) => event.event)).not.toContain('confirm');
    expect(events.at(-1)?.event).toBe('done');
  });

  it('asks the visitor to confirm a granted action, and performs it once on Confirm', async () => {
    expect((await ctx.api('grants/create/', { body: { role: 'public', capability: 'calendar.create_event' } })).status).toBe(201);
    const before = await eventTitles();
    const who = visitor();
    const { events } = await ask(who, BOOK);
    const confirm = events.find((event) => event.event === 'confirm')?.data as { actionId: string; summary: string };
    expect(confirm.summary).toMatch(/calendar event/i);
    expect(await eventTitles()).toEqual(before);

    // Another conversation cannot decide it; the arguments are the server's, whatever the client adds.
    expect((await post({ ...visitor(), actionId: confirm.actionId, confirm: true })).status).toBe(404);
    expect((await post({ ...who, actionId: confirm.actionId, confirm: true, input: { title: 'Forged' } })).status).toBe(400);
    const done = await post({ ...who, actionId: confirm.actionId, confirm: true });
    expect(done.events.map((event) => event.event)).toEqual(['delta', 'done']);
    const after = await eventTitles();
    expect(after).toHaveLength(before.length + 1);
    expect(after).not.toContain('Forged');
    // Single use.
    expect((await post({ ...who, actionId: confirm.actionId, confirm: true })).status).toBe(404);
  });

  it('sends a useChat client the action to confirm as a data-confirm part', async () => {
    const response = await fetch(`${ctx.platform.url}/v1/agents/${ctx.agentId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({
        id: crypto.randomUUID(),
        visitorId: crypto.randomUUID(),
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: BOOK }] }],
      }),
    });
    const parts = sseJson<{ type: string; data?: { actionId?: string } }>(await response.text());
    expect(parts.find((part) => part.type === 'data-confirm')?.data?.actionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(parts.at(-1)?.type).toBe('finish');
  });

  it('performs nothing when the visitor declines', async () => {
    const before = await eventTitles();
    const who = visitor();
    const confirm = (await ask(who, BOOK)).events.find((event) => event.event === 'confirm')?.data as { actionId: string };
    const declined = await post({ ...who, actionId: confirm.actionId, confirm: false });
    expect(String(declined.events[0]?.data.text)).toMatch(/did not do it/);
    expect(await eventTitles()).toEqual(before);
    expect((await post({ ...who, actionId: confirm.actionId, confirm: true })).status).toBe(404);
  });
});

describe('tool calls of the widget chat are bounded', () => {
  const LIST = { toolName: 'calendar__list_events', input: {} };
  const model = scriptedModel([{ toolCalls: [LIST, LIST, LIST, LIST] }, { text: 'Here they are.' }]);
  const ctx = usePlatform({ model });
  const post = chatPoster(ctx);

  it(`runs at most ${CHAT_LIMITS.toolCallsPerReply} per reply; the model is told the rest did not run`, async () => {
    expect((await ctx.api('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'calendar' } })).status).toBe(200);
    expect((await ctx.api('grants/create/', { body: { role: 'public', capability: 'calendar.list_events' } })).status).toBe(201);
    const { events } = await post({ ...visitor(), messages: [{ role: 'user', content: 'What is on the calendar?' }] });
    expect(events.at(-1)?.event).toBe('done');
    const results = JSON.stringify(model.doStreamCalls[1]?.prompt);
    expect(results.match(/"events"/g)).toHaveLength(CHAT_LIMITS.toolCallsPerReply);
    expect(results.split(`at most ${CHAT_LIMITS.toolCallsPerReply} tool calls per reply`)).toHaveLength(2);
  });
});
