import { createHash, createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConversationMeta } from '../../src/domains/conversations/repository';
import { storePendingAction } from '../../src/domains/conversations/pending-action-repository';
import { noteUnanswered } from '../../src/domains/knowledge/unanswered';
import { createRecord } from '../../src/domains/records/records';
import { openApiProblems } from '../support/openapi';
import { apiClient, usePlatform, type ApiResponse } from '../support/platform';
import { tracesOf } from '../support/traces';
import { localChatUrl, widgetVisitor } from '../support/widget-visitor';
import { createWorkspace } from '../support/workspaces';
import { subscribe } from '../webhooks/helpers';
import { startReceiver, type Receiver } from '../webhooks/receiver';

// A visitor's data (issue 29, item 6) through real HTTP: export it, erase it with an audit record, and let the retention
// setting erase old conversations through the local platform's scheduler; after each, every table of
// shared/src/tables.ts and the blob store are scanned for the visitor's id and a marker from their messages.

const DAY_MS = 24 * 3600_000;
const blobFolder = join(tmpdir(), `visitor-data-files-${process.pid}-${Date.now()}`);
let clockShiftMs = 0;
const ctx = usePlatform({
  env: { WEBHOOK_ALLOW_LOCAL: '1', KNOWLEDGE_BLOB_URI: blobFolder, RETENTION_SWEEP_MS: '250' },
  now: () => new Date(Date.now() + clockShiftMs),
});
let hook: Receiver;

beforeAll(async () => {
  hook = await startReceiver();
  await subscribe(ctx.api, hook.url, ['conversation.handoff_requested', 'conversation.message_created', 'conversation.closed']);
});
afterAll(() => hook?.close());

const marker = () => `marker${crypto.randomUUID().replaceAll('-', '')}`;

/** A widget visitor of the demo agent over the real chat endpoint (`headers`: a verified visitor's identity). */
const visitor = (options: { conversationId?: string; headers?: Record<string, string> } = {}) =>
  widgetVisitor(localChatUrl(ctx.platform.url, ctx.agentId), options);

/** Polls `check` until it holds (the scheduler's rounds), bounded. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 45_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Erasure = { id: string; state: string; reason: string; visitor_hash: string | null; requested_by: { kind: string }; removed: Record<string, number> };
type Exported = {
  conversations: {
    conversation: { id: string; visitor: { id: string } };
    messages: { role: string; text: string }[];
    pending_actions: { summary: string }[];
  }[];
  contacts: { name: string }[];
  webhook_deliveries: { event: string; payload: string }[];
};

describe("a visitor's data", () => {
  it('is exported whole, then erased everywhere with an audit record, leaving other visitors alone', async () => {
    const { deps } = ctx.platform;
    const workspaceId = ctx.platform.demo.workspaceId;
    const [adaMarker, bobMarker] = [marker(), marker()];
    const ada = visitor();
    expect((await ada.say(`My order number is ${adaMarker}`)).status).toBe(200);
    expect((await ada.say('I want to talk to a human')).status).toBe(200);
    expect((await ada.say(`Still there? ${adaMarker}`)).status).toBe(200);
    const owner = (await ctx.api<{ members: { user_id: string }[] }>('members/list')).body.data.members[0]!.user_id;
    expect((await ctx.api('conversations/assign', { body: { conversation_id: ada.conversationId, user_id: owner } })).status).toBe(200);
    // A stored reply for idempotent replays names the visitor.
    const reply = await ctx.api('conversations/reply', {
      body: { conversation_id: ada.conversationId, text: 'On it' },
      headers: { 'idempotency-key': `reply-${ada.conversationId}` },
    });
    expect(reply.status).toBe(201);
    // What the agent's tools leave in the widget: a pending action, a contact (the contacts skill), an unanswered question.
    await storePendingAction(deps, ada.conversationId, {
      toolName: 'contacts.create_contact',
      input: { name: `Ada ${adaMarker}` },
      summary: `Save Ada ${adaMarker}`,
    });
    await createRecord(
      deps,
      workspaceId,
      'contact',
      { name: `Ada ${adaMarker}`, email: null, phone: null, company: null, notes: null },
      undefined,
      ada.conversationId,
    );
    await noteUnanswered(deps, { workspaceId, agentId: ctx.agentId, question: `My order number is ${adaMarker}`, language: 'en' });
    const bob = visitor();
    expect((await bob.say(`Hello, I am ${bobMarker}`)).status).toBe(200);
    await hook.waitFor((requests) => requests.some((request) => JSON.stringify(request.event.data).includes(adaMarker)));
    // The scan sees what it looks for: every kind of trace is there before the erasure.
    const before = await tracesOf(deps, [ada.visitorId, adaMarker]);
    expect(before).toEqual(
      expect.arrayContaining([
        'conversations: ' + adaMarker,
        'webhookDeliveries: ' + adaMarker,
        'records: ' + adaMarker,
        'knowledgeUnanswered: ' + adaMarker,
        'idempotency: ' + ada.visitorId,
      ]),
    );

    const exported = await ctx.api<Exported>('visitors/export', { body: { visitor_id: ada.visitorId } });
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    expect(openApiProblems('visitorsExport', exported as ApiResponse<unknown>)).toEqual([]);
    expect(exported.body.data.conversations.map(({ conversation }) => conversation.id)).toEqual([ada.conversationId]);
    const [conversation] = exported.body.data.conversations;
    expect(conversation!.messages.filter((message) => message.role === 'user').map((message) => message.text)).toEqual([
      `My order number is ${adaMarker}`,
      'I want to talk to a human',
      `Still there? ${adaMarker}`,
    ]);
    expect(conversation!.messages.some((message) => message.role === 'teammate' && message.text === 'On it')).toBe(true);
    expect(conversation!.pending_actions.map((action) => action.summary)).toEqual([`Save Ada ${adaMarker}`]);
    expect(exported.body.data.contacts.map((contact) => contact.name)).toEqual([`Ada ${adaMarker}`]);
    expect(
      exported.body.data.webhook_deliveries.some((delivery) => delivery.event === 'conversation.message_created' && delivery.payload.includes(adaMarker)),
    ).toBe(true);

    // (An Idempotency-Key is stored as sent: it names the request, never the visitor.)
    const eraseKey = `erase-${crypto.randomUUID()}`;
    const erased = await ctx.api<{ erasure: Erasure }>('visitors/erase', { body: { visitor_id: ada.visitorId }, headers: { 'idempotency-key': eraseKey } });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(openApiProblems('visitorsErase', erased as ApiResponse<unknown>)).toEqual([]);
    const erasure = erased.body.data.erasure;
    expect(erasure).toMatchObject({
      state: 'completed',
      reason: 'request',
      requested_by: { kind: 'api_key' },
      visitor_hash: createHash('sha256').update(`${workspaceId}:visitor:${ada.visitorId}`).digest('hex'),
    });
    expect(erasure.removed).toMatchObject({ conversations: 1, pending_actions: 1, contacts: 1, unanswered_questions: 1 });
    expect(erasure.removed.messages).toBeGreaterThanOrEqual(5);
    expect(erasure.removed.webhook_deliveries).toBeGreaterThanOrEqual(1);
    expect(erasure.removed.stored_responses).toBeGreaterThanOrEqual(1);

    expect(await tracesOf(deps, [ada.visitorId, adaMarker], [blobFolder])).toEqual([]);
    // The other visitor keeps everything.
    expect(await tracesOf(deps, [bob.visitorId, bobMarker])).toEqual(
      expect.arrayContaining([`conversations: ${bob.visitorId}`, `conversations: ${bobMarker}`]),
    );
    expect((await ctx.api<Exported>('visitors/export', { body: { visitor_id: bob.visitorId } })).body.data.conversations).toHaveLength(1);

    // The same request again is the same erasure; the audit list has it, without the visitor's id.
    expect(
      (await ctx.api<{ erasure: Erasure }>('visitors/erase', { body: { visitor_id: ada.visitorId }, headers: { 'idempotency-key': eraseKey } })).body.data
        .erasure.id,
    ).toBe(erasure.id);
    const audit = await ctx.api<{ erasures: Erasure[] }>('visitors/audit_list');
    expect(openApiProblems('visitorsAuditList', audit as ApiResponse<unknown>)).toEqual([]);
    expect(audit.body.data.erasures.find((entry) => entry.id === erasure.id)).toEqual(erasure);
    expect(JSON.stringify(audit.body)).not.toContain(ada.visitorId);

    // Nobody writes to an erased conversation: a teammate's reply and the visitor's next message get 410.
    const late = await ctx.api('conversations/reply', { body: { conversation_id: ada.conversationId, text: 'Hello again' } });
    expect([late.status, late.body.error?.code]).toEqual([410, 'CONVERSATION_ERASED']);
    const again = await ada.attempt('Hello?');
    expect([again.status, again.error?.code]).toEqual([410, 'CONVERSATION_ERASED']);
    expect(await tracesOf(deps, [ada.visitorId, adaMarker])).toEqual([]);
  });

  it('names the visitor by exactly one id, and never reaches into another workspace', async () => {
    const visitorId = crypto.randomUUID();
    for (const body of [{}, { visitor_id: visitorId, verified_user_id: 'user-1' }, { visitor_id: 'not-a-uuid' }, { verified_user_id: 'has space' }]) {
      const refused = await ctx.api('visitors/erase', { body });
      expect([refused.status, refused.body.error?.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
    }
    // Another company's key finds nothing of this workspace's visitor, and erases nothing of theirs.
    const dana = visitor();
    const danaMarker = marker();
    expect((await dana.say(`Private ${danaMarker}`)).status).toBe(200);
    const other = await createWorkspace(ctx.platform.deps);
    const theirApi = apiClient(ctx.platform.apiBaseUrl, other.apiKey);
    expect((await theirApi<Exported>('visitors/export', { body: { visitor_id: dana.visitorId } })).body.data.conversations).toEqual([]);
    const fromThere = await theirApi<{ erasure: Erasure }>('visitors/erase', { body: { visitor_id: dana.visitorId } });
    expect([fromThere.status, fromThere.body.data.erasure.removed.conversations]).toEqual([200, 0]);
    expect(await tracesOf(ctx.platform.deps, [danaMarker])).toContain(`conversations: ${danaMarker}`);
    expect((await ctx.api<Exported>('visitors/export', { body: { visitor_id: dana.visitorId } })).body.data.conversations).toHaveLength(1);
  });

  it('erases a verified visitor by their user id, whichever devices they wrote from', async () => {
    const secret = (await ctx.api<{ identity_secret: string }>('agents/identity_secret', { body: { agent_id: ctx.agentId } })).body.data.identity_secret;
    const userId = `user-${crypto.randomUUID()}`;
    const headers = { 'x-user-id': userId, 'x-user-hash': createHmac('sha256', secret).update(userId).digest('hex') };
    const [laptop, phone] = [visitor({ headers }), visitor({ headers })];
    const phoneOnSameConversation = visitor({ headers, conversationId: laptop.conversationId });
    const secretMarker = marker();
    expect((await laptop.say(`From my laptop ${secretMarker}`)).status).toBe(200);
    expect((await phoneOnSameConversation.say(`From my phone ${secretMarker}`)).status).toBe(200);
    expect((await phone.say(`Another conversation ${secretMarker}`)).status).toBe(200);
    const exported = await ctx.api<Exported>('visitors/export', { body: { verified_user_id: userId } });
    expect(exported.body.data.conversations.map(({ conversation }) => conversation.id).sort()).toEqual([laptop.conversationId, phone.conversationId].sort());

    const erased = await ctx.api<{ erasure: Erasure }>('visitors/erase', { body: { verified_user_id: userId } });
    expect(erased.body.data.erasure.removed.conversations).toBe(2);
    expect(await tracesOf(ctx.platform.deps, [userId, laptop.visitorId, phone.visitorId, phoneOnSameConversation.visitorId, secretMarker])).toEqual([]);
  });

  it(
    'erases conversations past the retention setting through the scheduler, the setting applying to existing conversations',
    { timeout: 120_000 },
    async () => {
      const { deps } = ctx.platform;
      const carol = visitor();
      const carolMarker = marker();
      expect((await carol.say(`Keep this ${carolMarker}`)).status).toBe(200);
      const kept = await ctx.api<{ retention: { days: number | null } }>('visitors/retention_get');
      expect(kept.body.data.retention).toEqual({ days: null });
      expect(openApiProblems('visitorsRetentionGet', kept as ApiResponse<unknown>)).toEqual([]);
      expect((await readConversationMeta(deps, carol.conversationId))?.expiresAtEpoch).toBeUndefined();

      // A year's retention: the scheduler stamps the existing conversation's TTL from its last activity.
      const year = await ctx.api('visitors/retention_set', { body: { days: 365 } });
      expect(openApiProblems('visitorsRetentionSet', year as ApiResponse<unknown>)).toEqual([]);
      await eventually(async () => (await readConversationMeta(deps, carol.conversationId))?.expiresAtEpoch !== undefined);
      const lastActivity = Date.parse((await readConversationMeta(deps, carol.conversationId))!.updatedAt);
      expect((await readConversationMeta(deps, carol.conversationId))!.expiresAtEpoch).toBe(Math.floor((lastActivity + 366 * DAY_MS) / 1000));

      // A month later the conversation is still within a year; with 30 days it is past and goes.
      clockShiftMs = 31 * DAY_MS;
      expect(await tracesOf(deps, [carol.visitorId, carolMarker])).not.toEqual([]);
      expect((await ctx.api('visitors/retention_set', { body: { days: 30 } })).status).toBe(200);
      await eventually(async () => (await tracesOf(deps, [carol.visitorId, carolMarker], [blobFolder])).length === 0);
      const audit = await ctx.api<{ erasures: Erasure[] }>('visitors/audit_list');
      expect(audit.body.data.erasures[0]).toMatchObject({ reason: 'retention', requested_by: { kind: 'retention' }, visitor_hash: null, state: 'completed' });
      expect(audit.body.data.erasures[0]!.removed.conversations).toBeGreaterThanOrEqual(1);
      const late = await ctx.api('conversations/reply', { body: { conversation_id: carol.conversationId, text: 'Hello again' } });
      expect([late.status, late.body.error?.code]).toEqual([410, 'CONVERSATION_ERASED']);
    },
  );
});
