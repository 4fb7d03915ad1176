import { verify } from '@service/webhooks';
import { describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../src/domains/people/users';
import { startReceiver } from '../webhooks/receiver';
import { subscribe } from '../webhooks/helpers';
import { addPerson, call, signIn } from '../people/helpers';
import { authorizeUrl, consent, newPkce, registerClient, signIn as signInForConsent } from '../mcp/oauth-flow';
import { usePlatform } from '../support/platform';
import { localChatUrl, widgetVisitor } from '../support/widget-visitor';
import { failStoreOnce } from '../support/faults';
import { queryAuditItems } from '../../src/domains/audit/repository';
import type { AuditEntryView } from '../../src/domains/audit/audit';

type Entry = AuditEntryView & { before: Record<string, unknown> | null; after: Record<string, unknown> | null };
type AuditPage = { entries: Entry[]; next_cursor: string | null };

const DAY_MS = 24 * 3600_000;

/** Every change through every door lands in the demo workspace's audit log (docs/audit.md). */
describe('the audit log', () => {
  // The platform's clock moves only in the retention test (the sweeper's erasure a month on).
  let clockShiftMs = 0;
  const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', RETENTION_SWEEP_MS: '250' }, now: () => new Date(Date.now() + clockShiftMs) });
  /** The key the test calls with (others are made by the tests), found by its last four characters. */
  const demoKeyId = async () =>
    (await ctx.api<{ keys: { id: string; name: string; last4: string }[] }>('keys/list')).body.data.keys.find((key) => key.last4 === ctx.key.slice(-4))!;

  /** The entries of one action about one target since `from`, through audit/list with the demo key. */
  const entriesOf = async (action: string, target: string, from: string) => {
    const page = await ctx.api<AuditPage>('audit/list', { query: { action, target, from } });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    return page.body.data.entries;
  };

  it('records an API key changing an agent: who, from where, and the persona before and after', async () => {
    const from = new Date().toISOString();
    const before = (await ctx.api<{ agent: { persona: string } }>('agents/get', { query: { agent_id: ctx.agentId } })).body.data.agent.persona;
    const persona = `You answer in haiku (${Date.now()})`;
    const updated = await ctx.api('agents/update', { body: { agent_id: ctx.agentId, persona }, headers: { 'user-agent': 'audit-test/1.0' } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);

    const entries = await entriesOf('agent.updated', ctx.agentId, from);
    expect(entries).toHaveLength(1);
    const key = await demoKeyId();
    expect(entries[0]).toMatchObject({
      action: 'agent.updated',
      actor: { type: 'api_key', id: key.id, name: key.name },
      target: { type: 'agent', id: ctx.agentId },
      before: { persona: before },
      after: { persona },
      source_ip: expect.stringMatching(/127\.0\.0\.1|::1/),
      user_agent: 'audit-test/1.0',
    });
  });

  it('keeps no secret of what it records: a new API key, a webhook signing secret, an identity secret', async () => {
    const from = new Date().toISOString();
    const key = await ctx.api<{ key: { id: string }; secret: string }>('keys/create', { body: { name: 'audited key' } });
    const hook = await ctx.api<{ subscription: { id: string }; signing_secret: string }>('webhooks/create', {
      body: { url: 'https://hooks.example.com/in', events: ['audit.event'] },
    });
    const identity = await ctx.api<{ identity_secret: string }>('agents/identity_secret', { body: { agent_id: ctx.agentId } });
    expect([key.status, hook.status, identity.status]).toEqual([201, 201, 200]);

    const [keyEntries, hookEntries, identityEntries] = await Promise.all([
      entriesOf('api_key.created', key.body.data.key.id, from),
      entriesOf('webhook.created', hook.body.data.subscription.id, from),
      entriesOf('agent.identity_secret_rotated', ctx.agentId, from),
    ]);
    expect([keyEntries.length, hookEntries.length, identityEntries.length]).toEqual([1, 1, 1]);
    expect(keyEntries[0]!.after).toMatchObject({ id: key.body.data.key.id, name: 'audited key' });
    expect(hookEntries[0]!.after).toMatchObject({ signing_secret: '[redacted]', subscription: { id: hook.body.data.subscription.id } });
    expect(identityEntries[0]!.after).toMatchObject({ identity_secret: '[redacted]' });
    const stored = JSON.stringify([keyEntries, hookEntries, identityEntries]);
    for (const secret of [key.body.data.secret, hook.body.data.signing_secret, identity.body.data.identity_secret]) expect(stored).not.toContain(secret);
  });

  it('writes one entry for a create retried with its Idempotency-Key (the replay records nothing again)', async () => {
    const from = new Date().toISOString();
    const headers = { 'idempotency-key': `audit-retry-${Date.now()}` };
    const first = await ctx.api<{ key: { id: string } }>('keys/create', { body: { name: 'retried key' }, headers });
    const again = await ctx.api<{ key: { id: string } }>('keys/create', { body: { name: 'retried key' }, headers });
    expect(again.body.data.key.id).toBe(first.body.data.key.id);
    expect(await entriesOf('api_key.created', first.body.data.key.id, from)).toHaveLength(1);
  });

  it('loses no entry when recording fails after the change: the retry under the same Idempotency-Key records it once, and makes no second key', async () => {
    const from = new Date().toISOString();
    const auditTable = ctx.platform.deps.store.table('auditLog');
    const restore = failStoreOnce(ctx.platform.deps, (command) => command.input?.TableName === auditTable && command.constructor.name === 'PutCommand');
    const headers = { 'idempotency-key': `audit-fault-${Date.now()}` };
    const name = `fault key ${Date.now()}`;
    try {
      const failed = await ctx.api('keys/create', { body: { name }, headers });
      expect(failed.status).toBe(500);
    } finally {
      restore();
    }
    const retried = await ctx.api<{ key: { id: string } }>('keys/create', { body: { name }, headers });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    const keys = (await ctx.api<{ keys: { id: string; name: string }[] }>('keys/list')).body.data.keys.filter((key) => key.name === name);
    expect(keys.map((key) => key.id)).toEqual([retried.body.data.key.id]);
    expect(await entriesOf('api_key.created', retried.body.data.key.id, from)).toHaveLength(1);
  });

  it('records an owner changing a member’s role in the dashboard, with the role before and after; a member may not read the log', async () => {
    const from = new Date().toISOString();
    const email = `role-${Date.now()}@example.com`;
    const person = await addPerson(ctx.platform, email, 'member');
    const owner = await signIn(ctx.platform, ctx.platform.demo.ownerEmail);
    const changed = await call(ctx.platform, 'members/update', { body: { user_id: person.id, role: 'admin' }, headers: owner.headers });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    const page = await call<AuditPage>(ctx.platform, 'audit/list', {
      query: { target: person.id, action: 'member.role_changed', from },
      headers: owner.headers,
    });
    expect(page.status).toBe(200);
    const ownerUser = (await findUserByEmail(ctx.platform.deps, ctx.platform.demo.ownerEmail))!;
    expect(page.body.data.entries).toHaveLength(1);
    expect(page.body.data.entries[0]).toMatchObject({
      actor: { type: 'user', id: ownerUser.id, name: ctx.platform.demo.ownerEmail },
      target: { type: 'member', id: person.id, name: email },
      before: { role: 'member' },
      after: { role: 'admin' },
    });

    const memberEmail = `plain-${Date.now()}@example.com`;
    await addPerson(ctx.platform, memberEmail, 'member');
    const member = await signIn(ctx.platform, memberEmail);
    const refused = await call(ctx.platform, 'audit/list', { headers: member.headers });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('FORBIDDEN');
  });

  it('records sign-ins and failed sign-ins in the person’s workspace', async () => {
    const from = new Date().toISOString();
    const email = `signin-${Date.now()}@example.com`;
    const person = await addPerson(ctx.platform, email, 'member');
    expect((await call(ctx.platform, 'auth/email/start', { body: { email } })).status).toBe(200);
    const wrong = await call(ctx.platform, 'auth/email/verify', { body: { email, code: '000000' } });
    expect(wrong.body.error?.code).toMatch(/CODE_INVALID|CODE_EXPIRED/);
    await signIn(ctx.platform, email);

    const failed = await entriesOf('auth.sign_in_failed', person.id, from);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actor: { type: 'user', id: person.id, name: email }, after: { method: 'email_code', reason: wrong.body.error?.code } });
    const signedIn = await entriesOf('auth.signed_in', person.id, from);
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0]).toMatchObject({ actor: { type: 'user', id: person.id }, after: { method: 'email_code' } });
  });

  it('records a visitor export without copying the visitor’s data into the log', async () => {
    const from = new Date().toISOString();
    const visitorId = crypto.randomUUID();
    const exported = await ctx.api('visitors/export', { body: { visitor_id: visitorId } });
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    const page = await ctx.api<AuditPage>('audit/list', { query: { action: 'visitor.exported', from } });
    expect(page.body.data.entries).toHaveLength(1);
    expect(page.body.data.entries[0]).toMatchObject({
      actor: { type: 'api_key' },
      target: { type: 'visitor', id: expect.stringMatching(/^[0-9a-f]{64}$/) },
      after: { conversations: 0 },
    });
    expect(JSON.stringify(page.body.data.entries)).not.toContain(visitorId);
  });

  it('records a person’s consent to an MCP client on the consent page: the connection, its permissions and agents', async () => {
    const from = new Date().toISOString();
    const origin = ctx.platform.url;
    const redirectUri = 'http://127.0.0.1:9/callback';
    const client = await registerClient(origin, [redirectUri], 'Audited assistant');
    const cookie = await signInForConsent(origin, ctx.platform.demo.ownerEmail);
    const back = await consent(origin, authorizeUrl(origin, { clientId: client.body.client_id!, redirectUri, pkce: newPkce() }), cookie, {
      permissions: ['agents:read'],
      agents: [ctx.agentId],
    });
    expect(back.searchParams.get('code')).toBeTruthy();

    const page = await ctx.api<AuditPage>('audit/list', { query: { action: 'connection.approved', from } });
    const mine = page.body.data.entries.filter((entry) => entry.after?.client_id === client.body.client_id);
    expect(mine).toHaveLength(1);
    const owner = (await findUserByEmail(ctx.platform.deps, ctx.platform.demo.ownerEmail))!;
    expect(mine[0]).toMatchObject({
      actor: { type: 'user', id: owner.id, name: ctx.platform.demo.ownerEmail },
      target: { type: 'connection', id: expect.stringMatching(/\S/), name: 'Audited assistant' },
      after: { scopes: ['agents:read'], agent_ids: [ctx.agentId] },
    });
  });

  it('streams each entry as a signed audit.event webhook that @service/webhooks verifies', async () => {
    const receiver = await startReceiver();
    try {
      const subscription = await subscribe(ctx.api, receiver.url, ['audit.event']);
      const key = await ctx.api<{ key: { id: string } }>('keys/create', { body: { name: 'streamed key' } });
      await receiver.waitFor((requests) =>
        requests.some((request) => request.event.data.target && (request.event.data.target as { id: string }).id === key.body.data.key.id),
      );
      const request = receiver.requests.find((candidate) => (candidate.event.data.target as { id: string } | undefined)?.id === key.body.data.key.id)!;
      const event = verify(request.rawBody, request.headers['x-service-signature'] as string, subscription.secret, { now: new Date(request.at) });
      expect(event.event).toBe('audit.event');
      if (event.event !== 'audit.event') throw new Error('not an audit event');
      expect(event.data).toMatchObject({
        action: 'api_key.created',
        actor: { type: 'api_key' },
        target: { type: 'api_key', id: key.body.data.key.id, name: 'streamed key' },
      });
      const listed = await ctx.api<AuditPage>('audit/list', { query: { target: key.body.data.key.id } });
      expect(listed.body.data.entries.map((entry) => entry.id)).toEqual([event.data.id]);
    } finally {
      await receiver.close();
    }
  });

  it('records the platform erasing conversations past the retention setting, once per erasure', { timeout: 90_000 }, async () => {
    const visitor = widgetVisitor(localChatUrl(ctx.platform.url, ctx.agentId));
    expect((await visitor.say('Where is my parcel?')).status).toBe(200);
    try {
      clockShiftMs = 31 * DAY_MS;
      const from = new Date(Date.now() + clockShiftMs - 60_000).toISOString();
      expect((await ctx.api('visitors/retention_set', { body: { days: 30 } })).status).toBe(200);
      let entries: Entry[] = [];
      const until = Date.now() + 60_000;
      while (!entries.some((entry) => entry.actor.type === 'platform')) {
        if (Date.now() > until) throw new Error('the retention sweeper recorded no erasure');
        await new Promise((resolve) => setTimeout(resolve, 200));
        entries = (await ctx.api<AuditPage>('audit/list', { query: { action: 'visitor.erased', from } })).body.data.entries;
      }
      const erasures = (await ctx.api<{ erasures: { id: string; reason: string }[] }>('visitors/audit_list')).body.data.erasures.filter(
        (erasure) => erasure.reason === 'retention',
      );
      const platformEntries = entries.filter((entry) => entry.actor.type === 'platform');
      expect(platformEntries.map((entry) => entry.after?.erasure_id).sort()).toEqual(erasures.map((erasure) => erasure.id).sort());
      expect(platformEntries[0]).toMatchObject({
        actor: { type: 'platform', id: null, name: 'retention' },
        after: { reason: 'retention', state: 'completed' },
      });
    } finally {
      await ctx.api('visitors/retention_set', { body: { days: null } });
      clockShiftMs = 0;
    }
  });

  it("records the operator API's changes (master key) as the platform's, with the grant made", async () => {
    const from = new Date().toISOString();
    const workspaceId = ctx.platform.demo.workspaceId;
    const response = await fetch(`${ctx.platform.apiBaseUrl}/admin/grants/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-master-key': ctx.platform.skillHost.masterKey!, 'user-agent': 'operator-cli/2' },
      body: JSON.stringify({ workspace_id: workspaceId, role: 'member', capability: 'email.send' }),
    });
    expect(response.status).toBe(201);
    const entries = await entriesOf('grant.created', 'member', from);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { type: 'platform', id: null, name: 'operator' },
      target: { type: 'role', id: 'member' },
      after: { role: 'member', capability: 'email.send' },
      user_agent: 'operator-cli/2',
    });
  });

  it('records turning the older visitor user hash off, before and after', async () => {
    const from = new Date().toISOString();
    try {
      expect((await ctx.api('visitors/identity_set', { body: { allow_user_hmac: false } })).status).toBe(200);
      const entries = await entriesOf('visitors.identity_changed', ctx.platform.demo.workspaceId, from);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ before: { allow_user_hmac: true }, after: { allow_user_hmac: false } });
    } finally {
      await ctx.api('visitors/identity_set', { body: { allow_user_hmac: true } });
    }
  });

  it('keeps entries as long as the workspace says: a year unless set, and the setting itself is recorded', async () => {
    const from = new Date().toISOString();
    const workspaceId = ctx.platform.demo.workspaceId;
    expect((await ctx.api<{ retention: { days: number } }>('audit/retention_get')).body.data.retention.days).toBe(365);
    expect((await ctx.api('audit/retention_set', { body: { days: 7 } })).body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'days' });
    try {
      expect((await ctx.api('audit/retention_set', { body: { days: 90 } })).status).toBe(200);
      const changed = await entriesOf('audit.retention_changed', workspaceId, from);
      expect(changed).toHaveLength(1);
      expect(changed[0]).toMatchObject({ before: { days: 365 }, after: { days: 90 } });
      // The entry of the change just made, as stored: DynamoDB's TTL removes it 90 days after it was recorded.
      const { items } = await queryAuditItems(ctx.platform.deps, {
        workspaceId,
        also: { actionKey: `${workspaceId}#audit.retention_changed` },
        from,
        limit: 10,
      });
      const stored = items.find((item) => item.id === changed[0]!.id)!;
      expect(stored.expiresAtEpoch - Math.floor(Date.parse(stored.time) / 1000)).toBe(90 * 86_400);
    } finally {
      await ctx.api('audit/retention_set', { body: { days: 365 } });
    }
  });

  it('pages with a cursor and filters by actor, and refuses a cursor it did not hand out', async () => {
    const from = new Date().toISOString();
    for (let i = 0; i < 3; i += 1) expect((await ctx.api('agents/update', { body: { agent_id: ctx.agentId, teaser_word: `Hi ${i}` } })).status).toBe(200);
    const key = await demoKeyId();
    const first = await ctx.api<AuditPage>('audit/list', { query: { actor: key.id, action: 'agent.updated', from, limit: '2' } });
    expect(first.body.data.entries).toHaveLength(2);
    expect(first.body.data.next_cursor).toBeTruthy();
    const second = await ctx.api<AuditPage>('audit/list', {
      query: { actor: key.id, action: 'agent.updated', from, limit: '2', cursor: first.body.data.next_cursor! },
    });
    expect(second.body.data.entries).toHaveLength(1);
    const all = [...first.body.data.entries, ...second.body.data.entries];
    expect(all.map((entry) => entry.after?.teaser_word)).toEqual(['Hi 2', 'Hi 1', 'Hi 0']);
    expect(all.every((entry) => entry.actor.id === key.id)).toBe(true);

    const forged = Buffer.from(JSON.stringify({ workspaceId: crypto.randomUUID(), sk: 'x' })).toString('base64url');
    const refused = await ctx.api('audit/list', { query: { cursor: forged } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'cursor' });
    const badRange = await ctx.api('audit/list', { query: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } });
    expect(badRange.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'to' });
  });
});
