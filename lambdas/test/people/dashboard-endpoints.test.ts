import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendMessage, openConversation } from '../../src/domains/conversations/conversations';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { startReceiver, type Receiver } from '../webhooks/receiver';
import { addPerson, call, mailbox, signIn, type Person } from './helpers';
import { command, waitForRun } from '../support/runs';
import { scriptedModel } from '../support/scripted-model';

describe('the endpoints behind the dashboard screens', () => {
  const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1' } });
  let admin: Person;
  let member: Person;
  let receiver: Receiver;
  beforeAll(async () => {
    await addPerson(ctx.platform, 'settings@demo.example', 'admin');
    await addPerson(ctx.platform, 'viewer@demo.example', 'member');
    admin = await signIn(ctx.platform, 'settings@demo.example');
    member = await signIn(ctx.platform, 'viewer@demo.example');
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  it("agents/update changes an agent's Settings, and the widget configuration serves them", async () => {
    const body = {
      agent_id: ctx.agentId,
      name: 'Maya',
      role: 'Support lead',
      locale: 'tr',
      company_name: 'Demo Co',
      colors: { primary: '#112233', gradient_to: '#445566' },
      widget: { show_delay_ms: 0, teaser_delay_ms: 1500 },
      teaser_word: 'help',
      allowed_origins: ['https://shop.example', 'http://localhost:*'],
    };
    expect((await call(ctx.platform, 'agents/update', { body, headers: member.headers })).status).toBe(403);
    const updated = await call(ctx.platform, 'agents/update', { body, headers: admin.headers });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(openApiProblems('agentsUpdate', updated as ApiResponse<unknown>)).toEqual([]);
    expect(updated.body.data).toMatchObject({
      agent: {
        name: 'Maya',
        role: 'Support lead',
        locale: 'tr',
        company_name: 'Demo Co',
        colors: { primary: '#112233', gradient_from: '#2563eb', gradient_to: '#445566' },
        widget: { show_delay_ms: 0, teaser_delay_ms: 1500, idle_nudge_delay_ms: 30000 },
        teaser_word: 'help',
        allowed_origins: ['https://shop.example', 'http://localhost:*'],
      },
    });
    const fetched = await ctx.api<{ agent: unknown }>('agents/get/', { query: { agent_id: ctx.agentId } });
    expect(fetched.body.data.agent).toEqual(updated.body.data.agent);

    const config = await fetch(`${ctx.platform.url}/v1/agents/${ctx.agentId}/widget-config`, { headers: { origin: 'https://shop.example' } });
    expect(config.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(await config.json()).toMatchObject({
      agent: { name: 'Maya', role: 'Support lead' },
      branding: { companyName: 'Demo Co', primaryColor: '#112233' },
      widget: { showDelay: 0, teaserDelay: 1500, teaserHighlightWord: 'help', locale: 'tr' },
    });

    const badOrigin = await call(ctx.platform, 'agents/update', {
      body: { agent_id: ctx.agentId, allowed_origins: ['shop.example/path'] },
      headers: admin.headers,
    });
    expect(badOrigin.status).toBe(400);
    expect(badOrigin.body.error?.field).toBe('allowed_origins.0');
    const unknown = await call(ctx.platform, 'agents/update', {
      body: { agent_id: '00000000-0000-4000-8000-000000000000', name: 'X' },
      headers: admin.headers,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('AGENT_NOT_FOUND');
  });

  it('members/* and passkeys answer 404 NOT_FOUND for an id that names nothing', async () => {
    const unknown: [path: string, body: unknown][] = [
      ['members/update', { user_id: 'usr_AAAAAAAAAAAA', role: 'member' }],
      ['members/remove', { user_id: 'usr_AAAAAAAAAAAA' }],
      ['members/invitation_revoke', { invitation_id: 'inv_AAAAAAAAAAAA' }],
      ['auth/passkey/delete', { passkey_id: 'AAAAAAAAAAAA' }],
    ];
    await addPerson(ctx.platform, 'owner@demo.example', 'owner');
    const owner = await signIn(ctx.platform, 'owner@demo.example');
    const answers = await Promise.all(
      unknown.map(async ([path, body]) => {
        const response = await call(ctx.platform, path, { body, headers: owner.headers });
        return `${path} ${response.status} ${response.body.error?.code}`;
      }),
    );
    expect(answers).toEqual(unknown.map(([path]) => `${path} 404 NOT_FOUND`));
  });

  it('conversations/list and conversations/get show the widget conversations of an agent, read-only', async () => {
    const deps = ctx.platform.deps;
    const start = { agentId: ctx.agentId, workspaceId: ctx.platform.demo.workspaceId, locale: 'en' };
    await openConversation(deps, { ...start, conversationId: 'conv-first-0001', visitorId: 'visitor-a' });
    await appendMessage(deps, 'conv-first-0001', 'user', 'Do you ship to Izmir?');
    await appendMessage(deps, 'conv-first-0001', 'assistant', 'Yes, in two days.');
    await openConversation(deps, { ...start, conversationId: 'conv-second-0002', visitorId: 'visitor-b' });
    await openConversation(deps, { ...start, conversationId: 'conv-second-0002', visitorId: 'visitor-b' }); // touched again: listed once
    await appendMessage(deps, 'conv-second-0002', 'user', 'Hello');

    const page1 = await call<{ conversations: { id: string; messages: number }[]; next_cursor: string | null }>(ctx.platform, 'conversations/list', {
      query: { agent_id: ctx.agentId, limit: '1' },
      headers: member.headers,
    });
    expect(page1.status).toBe(200);
    expect(openApiProblems('conversationsList', page1 as ApiResponse<unknown>)).toEqual([]);
    expect(page1.body.data.conversations.map((c) => c.id)).toEqual(['conv-second-0002']);
    const page2 = await call<{ conversations: { id: string; messages: number; visitor: unknown }[] }>(ctx.platform, 'conversations/list', {
      query: { agent_id: ctx.agentId, limit: '5', cursor: page1.body.data.next_cursor! },
      headers: member.headers,
    });
    expect(page2.body.data.conversations).toEqual([
      expect.objectContaining({ id: 'conv-first-0001', messages: 2, visitor: { id: 'visitor-a', verified_user_id: null } }),
    ]);

    const transcript = await call(ctx.platform, 'conversations/get', { query: { conversation_id: 'conv-first-0001' }, headers: member.headers });
    expect(transcript.status).toBe(200);
    expect(openApiProblems('conversationsGet', transcript as ApiResponse<unknown>)).toEqual([]);
    expect(transcript.body.data.messages).toEqual([
      { seq: 1, role: 'user', text: 'Do you ship to Izmir?', at: expect.any(String), author: null, event: null },
      { seq: 2, role: 'assistant', text: 'Yes, in two days.', at: expect.any(String), author: null, event: null },
    ]);

    // A member signed in to the dashboard takes part with the same endpoints (conversations:reply): claims, replies as themselves.
    const claimed = await call<{ conversation: { handler: string; assignee: { id: string; name: string } } }>(ctx.platform, 'conversations/assign', {
      body: { conversation_id: 'conv-first-0001' },
      headers: member.headers,
    });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body.data.conversation.handler).toBe('people');
    const replied = await call<{ message: { role: string; author: { id: string } } }>(ctx.platform, 'conversations/reply', {
      body: { conversation_id: 'conv-first-0001', text: 'Yes, and for free.' },
      headers: member.headers,
    });
    expect(replied.status).toBe(201);
    expect(replied.body.data.message).toMatchObject({ role: 'teammate', author: { id: claimed.body.data.conversation.assignee.id } });
    const missing = await call(ctx.platform, 'conversations/get', { query: { conversation_id: 'nope' }, headers: member.headers });
    expect(missing.status).toBe(404);
  });

  it('webhooks/test sends a signed webhook.test event to the one subscription, logged like any delivery', async () => {
    const created = await ctx.api<{ subscription: { id: string } }>('webhooks/create/', { body: { url: receiver.url, events: ['agent.command.completed'] } });
    const webhookId = created.body.data.subscription.id;
    expect((await call(ctx.platform, 'webhooks/test', { body: { webhook_id: webhookId }, headers: member.headers })).status).toBe(403);
    const sent = await call<{ event_id: string }>(ctx.platform, 'webhooks/test', { body: { webhook_id: webhookId }, headers: admin.headers });
    expect(sent.status).toBe(202);
    expect(openApiProblems('webhooksTest', sent as ApiResponse<unknown>)).toEqual([]);
    expect(sent.body.data).toMatchObject({ webhook_id: webhookId, event: 'webhook.test', queued: true });
    await receiver.waitFor((requests) => requests.some((r) => r.event.id === sent.body.data.event_id));
    const request = receiver.requests.find((r) => r.event.id === sent.body.data.event_id)!;
    expect(request.headers['x-service-event']).toBe('webhook.test');
    expect(request.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(request.event.data).toMatchObject({ webhook_id: webhookId });

    const log = await ctx.api<{ attempts: { event: string; success: boolean }[] }>('webhooks/deliveries/', { query: { webhook_id: webhookId } });
    expect(openApiProblems('webhooksDeliveries', log as ApiResponse<unknown>)).toEqual([]);
    expect(log.body.data.attempts).toContainEqual(expect.objectContaining({ event: 'webhook.test', success: true }));
    expect((await call(ctx.platform, 'webhooks/test', { body: { webhook_id: 'whk_nope' }, headers: admin.headers })).status).toBe(404);
  });
});

describe("the agents' e-mail", () => {
  const model = scriptedModel([
    { toolCalls: [{ toolName: 'email__send', input: { to: 'bob@example.com', subject: 'Your quote', body: 'Here it is.' } }] },
    { text: 'Sent.' },
  ]);
  const ctx = usePlatform({ model });

  it("leaves through the platform's mail transport (locally GET /dev/mail.json) and stays in the outbox", async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Send Bob his quote', autonomy: 'full' });
    await waitForRun(ctx.api, runId, 20_000);
    const [mail] = await mailbox(ctx.platform);
    expect(mail).toMatchObject({ to: 'bob@example.com', subject: 'Your quote', text: 'Here it is.' });
    const outbox = await ctx.api<{ emails: { subject: string; from: string }[] }>('email/outbox/');
    expect(outbox.body.data.emails).toContainEqual(expect.objectContaining({ subject: 'Your quote' }));
  });
});

describe('provisioning creates the first owner', () => {
  const MASTER_KEY = 'o'.repeat(48);
  const ctx = usePlatform({ env: { SERVICE_MASTER_KEY: MASTER_KEY } });

  it('admin/workspaces/create with owner_email: the owner is a member at once and is mailed the invitation link', async () => {
    const response = await fetch(`${ctx.platform.apiBaseUrl}/admin/workspaces/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-master-key': MASTER_KEY },
      body: JSON.stringify({ name: 'Acme', owner_email: 'Founder@Acme.example' }),
    });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: { workspace: { id: string }; owner_email: string; owner_invite_url: string } };
    expect(data.owner_email).toBe('founder@acme.example');
    const link = new URL(data.owner_invite_url);
    expect(link.pathname).toBe('/dashboard/');
    expect((await mailbox(ctx.platform))[0]).toMatchObject({ to: 'founder@acme.example', text: expect.stringContaining(data.owner_invite_url) });

    const founder = await signIn(ctx.platform, 'founder@acme.example', data.workspace.id);
    const accepted = await call(ctx.platform, 'invitations/accept', { body: { token: link.searchParams.get('invitation') }, headers: founder.headers });
    expect(accepted.body.data).toEqual({ workspace: { id: data.workspace.id, name: 'Acme', role: 'owner' } });
    const members = await call<{ members: { email: string; role: string }[] }>(ctx.platform, 'members/list', { headers: founder.headers });
    expect(members.body.data.members).toEqual([expect.objectContaining({ email: 'founder@acme.example', role: 'owner' })]);
    // The demo workspace's owner is seeded too.
    const demoOwner = await signIn(ctx.platform, ctx.platform.demo.ownerEmail);
    expect(
      (await call<{ workspaces: { role: string }[] }>(ctx.platform, 'auth/session', { headers: { cookie: demoOwner.cookie } })).body.data.workspaces,
    ).toEqual([{ id: ctx.platform.demo.workspaceId, name: 'Demo Company', role: 'owner' }]);
  });
});
