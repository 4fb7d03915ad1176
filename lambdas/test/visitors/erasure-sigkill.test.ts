import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_LOCK_MS } from '../../src/infra/store/idempotency';
import { crashThenRestart } from '../support/crash-platform';
import type { ApiCall } from '../support/platform';

// An erasure survives kill -9 at any step (domains/visitors/erase.ts): the machine dies while it removes, and the
// retried request (same Idempotency-Key), or the retention sweeper for an erasure nobody retries, finishes it.

const ORIGIN = 'http://localhost:3000';

/** A visitor's conversation through the widget's chat: two messages carrying a marker. */
async function chattingVisitor(apiBaseUrl: string, agentId: string) {
  const conversationId = crypto.randomUUID();
  const visitorId = crypto.randomUUID();
  const marker = `marker${crypto.randomUUID().replaceAll('-', '')}`;
  const transcript: { role: 'user' | 'assistant'; content: string }[] = [];
  for (const content of [`My order is ${marker}`, `Please check ${marker}`]) {
    transcript.push({ role: 'user', content });
    const chat = await fetch(`${new URL(apiBaseUrl).origin}/v1/agents/${agentId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ conversationId, visitorId, locale: 'en', messages: transcript }),
    });
    expect(chat.status).toBe(200);
    await chat.text();
  }
  return { conversationId, visitorId, marker };
}

type Erasure = { id: string; state: string; removed: { conversations: number; messages: number } };

/** Nothing of the visitor is left to export, and their conversation answers 410. */
async function expectErased(api: ApiCall, visitor: { conversationId: string; visitorId: string; marker: string }) {
  const exported = await api<{ conversations: unknown[]; contacts: unknown[]; webhook_deliveries: unknown[] }>('visitors/export', {
    body: { visitor_id: visitor.visitorId },
  });
  expect(exported.body.data).toMatchObject({ conversations: [], contacts: [], webhook_deliveries: [] });
  const read = await api('conversations/get', { query: { conversation_id: visitor.conversationId } });
  expect([read.status, read.body.error?.code]).toEqual([410, 'CONVERSATION_ERASED']);
}

describe('an erasure and SIGKILL', { timeout: 120_000 }, () => {
  it('is finished by the retried request when the machine died while removing the messages', async () => {
    let visitor = { conversationId: '', visitorId: '', marker: '' };
    const key = `erase-${crypto.randomUUID()}`;
    await crashThenRestart(
      // The derived data and the tombstone are done; the machine dies at the first message it removes.
      { CRASH_AT: 'DeleteCommand:conversations' },
      // The retry comes once the dead attempt's lock on the key has lapsed.
      { CLOCK_SHIFT_MS: String(IDEMPOTENCY_LOCK_MS) },
      async (api, agentId, apiBaseUrl) => {
        visitor = await chattingVisitor(apiBaseUrl, agentId);
        await expect(api('visitors/erase', { body: { visitor_id: visitor.visitorId }, headers: { 'idempotency-key': key } })).rejects.toThrow();
      },
      async (api) => {
        // Already nobody writes to it, and the unfinished record is in the audit list.
        const listed = await api<{ erasures: Erasure[] }>('visitors/audit_list');
        expect(listed.body.data.erasures[0]).toMatchObject({ state: 'in_progress', removed: { conversations: 1, messages: 4 } });
        const retry = await api<{ erasure: Erasure }>('visitors/erase', { body: { visitor_id: visitor.visitorId }, headers: { 'idempotency-key': key } });
        expect(retry.status, JSON.stringify(retry.body)).toBe(200);
        expect(retry.body.data.erasure).toMatchObject({ id: listed.body.data.erasures[0]!.id, state: 'completed', removed: { conversations: 1, messages: 4 } });
        await expectErased(api, visitor);
      },
    );
  });

  it('is finished by the retention sweeper when nobody retries it', async () => {
    let visitor = { conversationId: '', visitorId: '', marker: '' };
    await crashThenRestart(
      // What goes is recorded on the erasure, and the machine dies before removing any of it.
      { CRASH_AFTER: 'UpdateCommand:visitor-erasures:SET removed' },
      // A restart two minutes later (past the sweeper's wait for a live erasure), its scheduler running often.
      { CLOCK_SHIFT_MS: '120000', RETENTION_SWEEP_MS: '200' },
      async (api, agentId, apiBaseUrl) => {
        visitor = await chattingVisitor(apiBaseUrl, agentId);
        await expect(api('visitors/erase', { body: { visitor_id: visitor.visitorId } })).rejects.toThrow();
      },
      async (api) => {
        const until = Date.now() + 20_000;
        let erasure: Erasure | undefined;
        while ((erasure = (await api<{ erasures: Erasure[] }>('visitors/audit_list')).body.data.erasures[0])?.state !== 'completed') {
          if (Date.now() > until) throw new Error(`the sweeper never finished the erasure: ${JSON.stringify(erasure)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(erasure?.removed).toMatchObject({ conversations: 1, messages: 4 });
        await expectErased(api, visitor);
      },
    );
  });
});
