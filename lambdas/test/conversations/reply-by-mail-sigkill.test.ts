import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_LOCK_MS } from '../../src/infra/store/idempotency';
import { crashThenRestart } from '../support/crash-platform';
import type { ApiCall } from '../support/platform';

// A teammate's reply to a visitor who left an e-mail address (issue 29) is mailed once: a machine that dies after
// mailing it and before answering sends no second mail on the retry, and one that dies before the mail was sent sends
// it on the retry (none lost).

const ORIGIN = 'http://localhost:3000';
const ADDRESS = 'away@example.com';

/** A conversation that waits for e-mail: the team is away, the visitor left an address; assigned to the owner. */
async function waitingForEmail(api: ApiCall, agentId: string, apiBaseUrl: string): Promise<string> {
  expect((await api('conversations/availability_set', { body: { mode: 'away', time_zone: 'UTC', hours: null, claim_timeout_minutes: null } })).status).toBe(
    200,
  );
  const conversationId = crypto.randomUUID();
  const visitorId = crypto.randomUUID();
  const chat = (content: string, extra: Record<string, unknown>) =>
    fetch(`${new URL(apiBaseUrl).origin}/v1/agents/${agentId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ conversationId, visitorId, locale: 'en', messages: [{ role: 'user', content }], ...extra }),
    }).then(async (response) => [response.status, await response.text()]);
  expect((await chat('A person, please', { handoff: true }))[0]).toBe(200);
  expect((await chat(ADDRESS, { email: ADDRESS }))[0]).toBe(200);
  const members = await api<{ members: { user_id: string }[] }>('members/list');
  expect((await api('conversations/assign', { body: { conversation_id: conversationId, user_id: members.body.data.members[0]!.user_id } })).status).toBe(200);
  return conversationId;
}

const mailsTo = async (apiBaseUrl: string) =>
  ((await (await fetch(`${new URL(apiBaseUrl).origin}/dev/mail.json`)).json()) as { mail: { to: string; text: string }[] }).mail.filter(
    (mail) => mail.to === ADDRESS,
  );

describe('a reply by e-mail and SIGKILL', () => {
  let conversationId = '';
  const reply = () => ({ body: { conversation_id: conversationId, text: 'We fixed it.' }, headers: { 'idempotency-key': `mail-sigkill-${conversationId}` } });

  it('sends no second mail when the machine dies after mailing and before answering, and the client retries', async () => {
    await crashThenRestart(
      // Stored and mailed; the answer is about to be kept for replays: the machine dies.
      { CRASH_AT: 'UpdateCommand:idempotency::done' },
      { CLOCK_SHIFT_MS: String(IDEMPOTENCY_LOCK_MS + 1_000) },
      async (api, agentId, apiBaseUrl) => {
        conversationId = await waitingForEmail(api, agentId, apiBaseUrl);
        await expect(api('conversations/reply', reply())).rejects.toThrow();
      },
      async (api, _agentId, _dataDir, apiBaseUrl) => {
        expect((await mailsTo(apiBaseUrl)).length).toBe(1);
        const retry = await api<{ message: { text: string } }>('conversations/reply', reply());
        expect([retry.status, retry.body.data.message.text]).toEqual([201, 'We fixed it.']);
        expect((await mailsTo(apiBaseUrl)).map((mail) => mail.text.includes('We fixed it.'))).toEqual([true]);
      },
    );
  }, 90_000);

  it('mails the reply on the retry when the machine died before the mail was sent', async () => {
    await crashThenRestart(
      // Stored; the mail is about to go: the machine dies.
      { CRASH_AT: 'PutCommand:mailbox' },
      { CLOCK_SHIFT_MS: String(IDEMPOTENCY_LOCK_MS + 1_000) },
      async (api, agentId, apiBaseUrl) => {
        conversationId = await waitingForEmail(api, agentId, apiBaseUrl);
        await expect(api('conversations/reply', reply())).rejects.toThrow();
      },
      async (api, _agentId, _dataDir, apiBaseUrl) => {
        expect((await mailsTo(apiBaseUrl)).length).toBe(0);
        expect((await api('conversations/reply', reply())).status).toBe(201);
        expect((await mailsTo(apiBaseUrl)).length).toBe(1);
      },
    );
  }, 90_000);
});
