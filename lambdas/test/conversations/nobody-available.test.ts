import { beforeEach, describe, expect, it } from 'vitest';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import type { openEventStream } from '../support/sse';
import { localChatUrl, widgetVisitor } from '../support/widget-visitor';
import { appendEntry } from '../../src/domains/conversations/conversations';
import { mailReply } from '../../src/domains/conversations/reply-by-mail';
import { readConversationMeta, startMailAttempt } from '../../src/domains/conversations/repository';

// "Nobody available" (issue 29) through real HTTP: the workspace's availability over REST, a handoff when nobody is
// available (away, outside the business hours) or one nobody claims within the claim timeout (the conversation
// sweeper, on the platform's shifted clock) gets the agent's fixed request for an e-mail address in the conversation's
// language; the address the visitor leaves is kept, and the teammate's reply ends in the local mailbox, once.

/** How far the platform's clock is ahead of the test's: a claim timeout passes without waiting minutes. */
let clockShiftMs = 0;
const ctx = usePlatform({ now: () => new Date(Date.now() + clockShiftMs), env: { CONVERSATION_SWEEP_MS: '200' } });
let ownerId = '';

const AROUND_THE_CLOCK = { mode: 'auto', time_zone: 'UTC', hours: null, claim_timeout_minutes: null };
const setAvailability = (settings: Record<string, unknown>) =>
  ctx.api<{ availability: Record<string, unknown>; available_now: boolean }>('conversations/availability_set', { body: settings });

beforeEach(async () => {
  clockShiftMs = 0;
  expect((await setAvailability(AROUND_THE_CLOCK)).status).toBe(200);
  ownerId ||= (await ctx.api<{ members: { user_id: string }[] }>('members/list')).body.data.members[0]!.user_id;
});

const visitor = () => widgetVisitor(localChatUrl(ctx.platform.url, ctx.agentId));

const messagesOf = (stream: ReturnType<typeof openEventStream>) =>
  stream.events.filter((event) => event.event === 'message').map((event) => JSON.parse(event.data) as { role: string; text: string; event: string | null });
const statesOf = (stream: ReturnType<typeof openEventStream>) =>
  stream.events.filter((event) => event.event === 'state').map((event) => JSON.parse(event.data) as { handler: string; email?: string });
const mailbox = async () =>
  ((await (await fetch(`${ctx.platform.url}/dev/mail.json`)).json()) as { mail: { to: string; subject: string; text: string }[] }).mail;
const conversation = async (conversationId: string) =>
  (
    await ctx.api<{
      conversation: { visitor_email: string | null; email_replies: boolean; handler: string };
      messages: { role: string; event: string | null; text: string }[];
    }>('conversations/get', { query: { conversation_id: conversationId } })
  ).body.data;

describe('availability', () => {
  it('is around the clock until set; owners and admins set business hours, the away switch and the claim timeout; bad settings are refused', async () => {
    const read = await ctx.api<{ availability: Record<string, unknown>; available_now: boolean }>('conversations/availability');
    expect(read.status).toBe(200);
    expect(openApiProblems('conversationsAvailability', read as ApiResponse<unknown>)).toEqual([]);
    expect(read.body.data).toEqual({ availability: AROUND_THE_CLOCK, available_now: true });

    const hours = { mode: 'auto', time_zone: 'Europe/Istanbul', hours: [{ day: 'mon', from: '09:00', to: '17:30' }], claim_timeout_minutes: 5 };
    const saved = await setAvailability(hours);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(openApiProblems('conversationsAvailabilitySet', saved as ApiResponse<unknown>)).toEqual([]);
    expect(saved.body.data.availability).toEqual(hours);
    expect((await ctx.api<{ availability: unknown }>('conversations/availability')).body.data.availability).toEqual(hours);
    expect((await setAvailability({ ...AROUND_THE_CLOCK, mode: 'away' })).body.data.available_now).toBe(false);

    for (const [bad, field] of [
      [{ ...hours, time_zone: 'Mars/Olympus' }, 'time_zone'],
      [{ ...hours, hours: [{ day: 'mon', from: '17:00', to: '09:00' }] }, 'hours.0.to'],
      [{ ...hours, hours: [{ day: 'someday', from: '09:00', to: '10:00' }] }, 'hours.0.day'],
      [{ ...hours, claim_timeout_minutes: 0 }, 'claim_timeout_minutes'],
      [{ ...hours, mode: 'asleep' }, 'mode'],
    ] as const) {
      const refused = await setAvailability(bad);
      expect([refused.status, refused.body.error?.code, refused.body.error?.field]).toEqual([400, 'VALIDATION_ERROR', field]);
    }
  });
});

describe('nobody available', () => {
  it('asks the visitor for an e-mail address when the team is away, keeps the address, and mails the teammate’s reply once', async () => {
    expect((await setAvailability({ ...AROUND_THE_CLOCK, mode: 'away' })).status).toBe(200);
    const ada = visitor();
    const first = await ada.say('I want to talk to a human');
    const live = ada.live();
    expect(first.handoff).toMatchObject({ handler: 'people', assignee: null });
    await live.waitFor(() => messagesOf(live).some((message) => message.event === 'email_requested'));
    expect(messagesOf(live).find((message) => message.event === 'email_requested')?.text).toBe(
      'Nobody from our team is available right now. Leave your e-mail address and we will answer you there.',
    );
    await live.waitFor(() => statesOf(live).some((state) => state.email === 'requested'));

    // Not an address: refused, nothing kept.
    const bad = await ada.attempt('not an address', { email: 'not an address' });
    expect([bad.status, bad.error?.code, bad.error?.field]).toEqual([400, 'VALIDATION_ERROR', 'email']);
    expect((await conversation(ada.conversationId)).conversation.visitor_email).toBeNull();

    const left = await ada.say('ada@example.com', { email: 'ada@example.com' });
    expect(left.text).toBe('Thank you. A person from our team will answer you at ada@example.com.');
    expect(left.handoff).toEqual({ handler: 'people', assignee: null, email: 'given' });
    const waiting = await conversation(ada.conversationId);
    expect(waiting.conversation).toMatchObject({ handler: 'people', visitor_email: 'ada@example.com', email_replies: true });
    live.drop();

    // The teammate claims it and replies while the visitor is away: the reply goes to the address, once, whatever the retries.
    expect((await ctx.api('conversations/assign', { body: { conversation_id: ada.conversationId, user_id: ownerId } })).status).toBe(200);
    const reply = () =>
      ctx.api('conversations/reply', {
        body: { conversation_id: ada.conversationId, text: 'Your refund was issued today.' },
        headers: { 'idempotency-key': `mail-${ada.conversationId}` },
      });
    expect((await reply()).status).toBe(201);
    expect((await reply()).status).toBe(201);
    const mails = (await mailbox()).filter((mail) => mail.to === 'ada@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Your refund was issued today.');
    // A reply whose two sends were both started by machines that died inside them (mailed or not, nobody can tell):
    // a third is never started (SES has no idempotency token; docs/inbox.md, the at-least-once window).
    const deps = ctx.platform.deps;
    const twice = await appendEntry(deps, ada.conversationId, { role: 'teammate', content: 'Sent twice already', author: { id: ownerId, name: 'Owner' } });
    for (let attempt = 0; attempt < 2; attempt++) expect(await startMailAttempt(deps, ada.conversationId, twice.messageId, 2)).toBe(true);
    await mailReply(deps, (await readConversationMeta(deps, ada.conversationId))!, twice);
    expect((await mailbox()).filter((mail) => mail.text.includes('Sent twice already'))).toEqual([]);

    // Back in the widget: the reply is in the conversation's stream; replies stop going by e-mail.
    const back = ada.live();
    await back.waitFor(() => messagesOf(back).some((message) => message.role === 'teammate' && message.text === 'Your refund was issued today.'));
    back.drop();
    await ada.say('Thanks, I see it');
    expect((await conversation(ada.conversationId)).conversation.email_replies).toBe(false);
    expect((await ctx.api('conversations/reply', { body: { conversation_id: ada.conversationId, text: 'Anything else?' } })).status).toBe(201);
    expect((await mailbox()).filter((mail) => mail.to === 'ada@example.com')).toHaveLength(1);
  });

  it('asks outside the business hours, in the conversation’s language', async () => {
    // Open only two days from today on the platform's clock (in UTC): nobody is available now, even past midnight.
    const other = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][(ctx.platform.deps.now().getUTCDay() + 2) % 7]!;
    expect((await setAvailability({ ...AROUND_THE_CLOCK, hours: [{ day: other, from: '00:00', to: '24:00' }] })).body.data.available_now).toBe(false);
    const deniz = visitor();
    await deniz.say('Bir insanla konuşmak istiyorum, lütfen bana yardım edin', { handoff: true });
    const { messages } = await conversation(deniz.conversationId);
    expect(messages.find((message) => message.event === 'email_requested')?.text).toBe(
      'Şu anda ekibimizden kimse müsait değil. E-posta adresinizi bırakın, size oradan yanıt verelim.',
    );
  });

  it('asks when nobody claims the conversation within the claim timeout, and not when a teammate claimed it in time', async () => {
    expect((await setAvailability({ ...AROUND_THE_CLOCK, claim_timeout_minutes: 1 })).status).toBe(200);
    const unclaimed = visitor();
    const claimed = visitor();
    await unclaimed.say('I want to talk to a human');
    await claimed.say('I want to talk to a human');
    expect((await ctx.api('conversations/assign', { body: { conversation_id: claimed.conversationId, user_id: ownerId } })).status).toBe(200);
    const live = unclaimed.live();
    await live.waitFor(() => statesOf(live).length > 0);
    expect(messagesOf(live).some((message) => message.event === 'email_requested')).toBe(false);

    // A minute and a bit later (the platform's clock), the sweeper finds the claim timeout due.
    clockShiftMs = 61_000;
    await live.waitFor(() => messagesOf(live).some((message) => message.event === 'email_requested'));
    await live.waitFor(() => statesOf(live).some((state) => state.email === 'requested'));
    live.drop();
    expect((await conversation(claimed.conversationId)).messages.some((message) => message.event === 'email_requested')).toBe(false);
  });
});
