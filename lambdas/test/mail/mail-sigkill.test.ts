import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { UNWORKED_AFTER_MS } from '../../src/domains/mail/mail-sweeper';
import { MAIL_WORK_MS } from '../../src/domains/mail/thread-mail';
import { crashThenRestart } from '../support/crash-platform';
import type { ApiCall } from '../support/platform';
import { waitFor } from '../support/wait-for';

// kill -9 at each step of receiving a mail (issue 38): before the 250 the sender hears nothing and its retry is kept
// once; after the record is stored the mail is worked anyway (the sender's retry names the same mail, the mail sweeper
// or the queue's redelivery finishes it); while answering, the agent's answer is stored and mailed once.

const CUSTOMER = 'kim@customer.example';
/** The crashed platform's `mail` messages come back after this, not the default 30 s. */
const QUEUE = { QUEUE_VISIBILITY_MS: 'mail=1500' };
/** The restart after a crash while a worker held the mail: later than its lease (the worker is dead). */
const LATER = { ...QUEUE, CLOCK_SHIFT_MS: String(MAIL_WORK_MS + 10_000) };

interface Box {
  to: string;
  headers: Record<string, string>;
}

const agentAddress = async (api: ApiCall, agentId: string) =>
  (await api<{ agent: { email: string } }>('agents/get', { query: { agent_id: agentId } })).body.data.agent.email;

/** One customer mail, the same bytes every time it is sent (a sender's retry of a mail it never heard 250 for). */
function customerMail(to: string): { raw: string; envelope: { from: string; to: string } } {
  const raw = `From: Kim <${CUSTOMER}>\r\nTo: ${to}\r\nSubject: Delivery\r\nMessage-ID: <kim-1@customer.example>\r\nDate: Wed, 02 Dec 2026 04:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nWhere is my parcel?\r\n`;
  return { raw, envelope: { from: CUSTOMER, to } };
}

const send = (port: number, mail: { raw: string; envelope: { from: string; to: string } }) =>
  createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }).sendMail(mail);

const mailsToCustomer = async (apiBaseUrl: string): Promise<Box[]> =>
  ((await (await fetch(`${new URL(apiBaseUrl).origin}/dev/mail.json`)).json()) as { mail: Box[] }).mail.filter((mail) => mail.to === CUSTOMER);

/** The customer's conversation once the agent's answer is stored: its transcript's roles. */
async function transcriptRoles(api: ApiCall, agentId: string): Promise<string[]> {
  return waitFor(async () => {
    const list = await api<{ conversations: { id: string; email: { address: string } | null }[] }>('conversations/list', { query: { agent_id: agentId } });
    const ours = list.body.data.conversations.filter((item) => item.email?.address === CUSTOMER);
    expect(ours.length).toBeLessThanOrEqual(1);
    if (!ours[0]) return undefined;
    const transcript = await api<{ messages: { role: string }[] }>('conversations/get', { query: { conversation_id: ours[0].id } });
    const roles = transcript.body.data.messages.map((message) => message.role);
    return roles.includes('assistant') ? roles : undefined;
  });
}

/**
 * After the restart: the customer's mail answered exactly once (one conversation, one entry each, one mail), once the
 * answer is mailed and the restarted platform has worked `messages` of the `mail` queue to their end (the redelivery
 * of the one the crash left in flight).
 */
async function answeredOnce(api: ApiCall, agentId: string, apiBaseUrl: string, worked: (queue: string) => number, messages = 1): Promise<void> {
  expect(await transcriptRoles(api, agentId)).toEqual(['user', 'assistant']);
  await waitFor(async () => ((await mailsToCustomer(apiBaseUrl)).length > 0 && worked('mail') >= messages ? true : undefined));
  const answers = await mailsToCustomer(apiBaseUrl);
  expect(answers.map((mail) => mail.headers['in-reply-to'])).toEqual(['<kim-1@customer.example>']);
  expect(await transcriptRoles(api, agentId)).toEqual(['user', 'assistant']);
}

describe('inbound mail and SIGKILL', () => {
  it('gives no 250 when the machine dies before the record is stored, and keeps the retry once', async () => {
    await crashThenRestart(
      { CRASH_AT: 'PutCommand:mail:mail#' },
      {},
      async (api, agentId, _url, smtpPort) => {
        await expect(send(smtpPort, customerMail(await agentAddress(api, agentId)))).rejects.toThrow();
      },
      async (api, agentId, _dataDir, apiBaseUrl, smtpPort, worked) => {
        expect(await mailsToCustomer(apiBaseUrl)).toHaveLength(0);
        const retry = await send(smtpPort, customerMail(await agentAddress(api, agentId)));
        expect(retry.response).toMatch(/^250/);
        await answeredOnce(api, agentId, apiBaseUrl, worked);
      },
    );
  }, 120_000);

  it('answers once a mail stored before its 250 and its queue message: the sweep and the sender’s retry name one mail', async () => {
    await crashThenRestart(
      // The record is stored; the queue message and the 250 never go.
      { CRASH_AFTER: 'PutCommand:mail:mail#' },
      // Later: the stored mail is past the sweeper's bound, and the sweeper runs every second.
      { ...QUEUE, CLOCK_SHIFT_MS: String(UNWORKED_AFTER_MS + 10_000), SWEEP_EVERY_MS: '1000' },
      async (api, agentId, _url, smtpPort) => {
        await expect(send(smtpPort, customerMail(await agentAddress(api, agentId)))).rejects.toThrow();
      },
      async (api, agentId, _dataDir, apiBaseUrl, smtpPort, worked) => {
        // The sweeper alone answers it…
        expect(await transcriptRoles(api, agentId)).toEqual(['user', 'assistant']);
        // …and the sender, who never heard 250, sends it again: the same mail, not a second one.
        expect((await send(smtpPort, customerMail(await agentAddress(api, agentId)))).response).toMatch(/^250/);
        await answeredOnce(api, agentId, apiBaseUrl, worked);
      },
    );
  }, 120_000);

  it('stores the customer’s entry once when the machine dies while threading the mail', async () => {
    await crashThenRestart(
      // The customer's entry is stored; the mail is about to be marked threaded.
      { ...QUEUE, CRASH_AT: 'UpdateCommand:mail:#f0' },
      LATER,
      async (api, agentId, _url, smtpPort) => {
        // The 250 may or may not have reached the sender before the machine died: the sender retries if not.
        await send(smtpPort, customerMail(await agentAddress(api, agentId))).catch(() => undefined);
      },
      async (api, agentId, _dataDir, apiBaseUrl, smtpPort, worked) => {
        expect((await send(smtpPort, customerMail(await agentAddress(api, agentId)))).response).toMatch(/^250/);
        await answeredOnce(api, agentId, apiBaseUrl, worked);
      },
    );
  }, 120_000);

  for (const [when, crash] of [
    ['the answer is stored and its mail about to go', { CRASH_AT: 'PutCommand:mailbox' }],
    ['the answer is mailed and recorded as mailed, before the mail is marked answered', { CRASH_AFTER: 'UpdateCommand:conversations:mailedAt' }],
  ] as const) {
    it(`mails the agent’s answer once when the machine dies after ${when}`, async () => {
      await crashThenRestart(
        { ...QUEUE, ...crash },
        LATER,
        async (api, agentId, _url, smtpPort) => {
          expect((await send(smtpPort, customerMail(await agentAddress(api, agentId)))).response).toMatch(/^250/);
        },
        (api, agentId, _dataDir, apiBaseUrl, _smtpPort, worked) => answeredOnce(api, agentId, apiBaseUrl, worked),
      );
    }, 120_000);
  }
});
