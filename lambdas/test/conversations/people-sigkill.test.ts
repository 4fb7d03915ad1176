import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_LOCK_MS } from '../../src/infra/store/idempotency';
import { crashThenRestart } from '../support/crash-platform';
import type { ApiCall } from '../support/platform';

// A teammate's message is stored before it is acknowledged (issue 29): a machine that loses power after answering
// loses none, and one that dies between storing it and answering stores it once for the retry.

const ORIGIN = 'http://localhost:3000';

/** A visitor's conversation (through the widget's chat), assigned to the workspace's owner so an API key replies as them. */
async function claimedConversation(api: ApiCall, agentId: string, apiBaseUrl: string): Promise<string> {
  const conversationId = crypto.randomUUID();
  const chat = await fetch(`${new URL(apiBaseUrl).origin}/v1/agents/${agentId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify({ conversationId, visitorId: crypto.randomUUID(), locale: 'en', messages: [{ role: 'user', content: 'I need help with my order' }] }),
  });
  expect(chat.status).toBe(200);
  await chat.text();
  const members = await api<{ members: { user_id: string }[] }>('members/list');
  expect((await api('conversations/assign', { body: { conversation_id: conversationId, user_id: members.body.data.members[0]!.user_id } })).status).toBe(200);
  return conversationId;
}

const teammateTexts = async (api: ApiCall, conversationId: string) =>
  (await api<{ messages: { role: string; text: string }[] }>('conversations/get', { query: { conversation_id: conversationId } })).body.data.messages
    .filter((message) => message.role === 'teammate')
    .map((message) => message.text);

describe('a teammate message and SIGKILL', () => {
  it('stores the "joined" entry of a claim whose process died between the change of hands and its entry, once the claim is retried', async () => {
    let conversationId = '';
    let ownerId = '';
    await crashThenRestart(
      // The conversation's handling is changed (the entry kept on it), and the machine dies before the entry is stored.
      { CRASH_AFTER: 'UpdateCommand:conversations:SET #handler' },
      {},
      async (api, agentId, apiBaseUrl) => {
        conversationId = crypto.randomUUID();
        const chat = await fetch(`${new URL(apiBaseUrl).origin}/v1/agents/${agentId}/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN },
          body: JSON.stringify({ conversationId, visitorId: crypto.randomUUID(), locale: 'en', messages: [{ role: 'user', content: 'Hello' }] }),
        });
        await chat.text();
        ownerId = (await api<{ members: { user_id: string }[] }>('members/list')).body.data.members[0]!.user_id;
        await expect(api('conversations/assign', { body: { conversation_id: conversationId, user_id: ownerId } })).rejects.toThrow();
      },
      async (api) => {
        const events = async () =>
          (
            await api<{ messages: { role: string; event: string | null }[] }>('conversations/get', { query: { conversation_id: conversationId } })
          ).body.data.messages.filter((message) => message.event === 'joined');
        expect(await events()).toEqual([]);
        const retry = await api<{ conversation: { handler: string } }>('conversations/assign', { body: { conversation_id: conversationId, user_id: ownerId } });
        expect([retry.status, retry.body.data.conversation.handler]).toEqual([200, 'people']);
        expect(await events()).toHaveLength(1);
        await api('conversations/assign', { body: { conversation_id: conversationId, user_id: ownerId } });
        expect(await events()).toHaveLength(1);
      },
    );
  }, 90_000);

  it('keeps an acknowledged reply when the machine dies right after answering', async () => {
    let conversationId = '';
    await crashThenRestart(
      // The next write to the conversation after the reply's answer (a typing signal) is where the power goes.
      { CRASH_AT: 'UpdateCommand:conversations:SET #typing' },
      {},
      async (api, agentId, apiBaseUrl) => {
        conversationId = await claimedConversation(api, agentId, apiBaseUrl);
        expect((await api('conversations/reply', { body: { conversation_id: conversationId, text: 'Your order ships today' } })).status).toBe(201);
        await expect(api('conversations/typing', { body: { conversation_id: conversationId } })).rejects.toThrow();
      },
      async (api) => expect(await teammateTexts(api, conversationId)).toEqual(['Your order ships today']),
    );
  }, 90_000);

  it('stores a reply once when the machine dies between storing it and answering, and the client retries', async () => {
    let conversationId = '';
    const reply = () => ({ body: { conversation_id: conversationId, text: 'Refund issued' }, headers: { 'idempotency-key': 'reply-sigkill-1' } });
    await crashThenRestart(
      // The reply is stored and its answer is about to be kept for replays: the machine dies.
      { CRASH_AT: 'UpdateCommand:idempotency::done' },
      { CLOCK_SHIFT_MS: String(IDEMPOTENCY_LOCK_MS + 1_000) },
      async (api, agentId, apiBaseUrl) => {
        conversationId = await claimedConversation(api, agentId, apiBaseUrl);
        await expect(api('conversations/reply', reply())).rejects.toThrow();
      },
      async (api) => {
        expect(await teammateTexts(api, conversationId)).toEqual(['Refund issued']);
        const retry = await api<{ message: { text: string } }>('conversations/reply', reply());
        expect([retry.status, retry.body.data.message.text]).toEqual([201, 'Refund issued']);
        expect(await teammateTexts(api, conversationId)).toEqual(['Refund issued']);
      },
    );
  }, 90_000);
});
