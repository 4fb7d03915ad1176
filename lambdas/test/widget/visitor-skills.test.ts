import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';

// A widget visitor runs skills as the `public` role: nothing until the company grants a capability, and then a
// real-world action only after the visitor's Confirm, performed from the server's own copy of the arguments.

const ORIGIN = 'http://localhost:3000';
const BOOK = 'Book a demo tomorrow at 10';

describe('visitor skills in the widget chat', () => {
  const ctx = usePlatform();
  const chatUrl = () => `${ctx.platform.url}/v1/agents/${ctx.agentId}/chat`;

  async function post(body: Record<string, unknown>): Promise<{ status: number; events: { event: string; data: Record<string, unknown> }[] }> {
    const response = await fetch(chatUrl(), { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body: JSON.stringify(body) });
    const events: { event: string; data: Record<string, unknown> }[] = [];
    createParser({ onEvent: (event) => events.push({ event: event.event ?? 'message', data: JSON.parse(event.data) }) }).feed(await response.text());
    return { status: response.status, events };
  }

  const visitor = () => ({ conversationId: crypto.randomUUID(), visitorId: crypto.randomUUID(), locale: 'en' });
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
