import { verify, type WebhookEvent } from '@service/webhooks';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AGENT_MAIL_DOMAIN, MAIL_DOMAIN, synthesized } from '../../../test/setup/cdk-synth';
import { startBundledPlatform, type RunningBundledPlatform } from '../../src/entries/bundled/platform';
import { authorizeUrl, mcpCall, newPkce, registerClient, tokenRequest } from '../mcp/oauth-flow';
import { startOtlpReceiver } from '../support/otlp-receiver';
import { startMarkdownSite, type MarkdownSite } from '../support/markdown-site';
import { openEventStream } from '../support/sse';
import { liveMessages, WIDGET_ORIGIN, widgetVisitor } from '../support/widget-visitor';

/**
 * The deployed form, end to end: the bundled tier's one `cdk synth` (test/setup/cdk-synth.ts: a default deploy, plus
 * the mail settings SES needs), then every request goes through the bundles it produced, each loaded as the Lambda
 * runtime loads it, behind the routes, Function URLs and distributions of the template. The test only speaks HTTP to
 * the stack's outputs, as a customer, a browser, an assistant and a webhook receiver would.
 */
/** The help center the knowledge tests crawl: a few pages the team wrote, Markdown by slug (served as HTML). */
const HELP_CENTER: Record<string, string> = {
  introduction: `---
title: Introduction
---

# Welcome to the Northwind help center

Northwind keeps your team's orders, invoices and stock in one place. Start with [your account settings](/docs/account-settings),
then secure your account with [two-factor authentication](/docs/2fa).
`,
  '2fa': `---
title: Two-factor authentication
---

# Setting up two-factor authentication (2FA)

Two-factor authentication protects your account with a second step after your password.

## Enable 2FA

1. Open **Account settings** and choose **Security**.
2. Press **Enable two-factor authentication** and scan the QR code with an authenticator app.
3. Type the 6-digit code the app shows, then keep the recovery codes somewhere safe.

## Lost your phone?

Sign in with one of your recovery codes, then turn 2FA off and on again to link your new phone.
`,
  'account-settings': `---
title: Account settings
---

# Account settings

Change your name, e-mail address and password under **Account settings**. A new e-mail address is confirmed by a link
sent to it. See [billing](/docs/billing) to change how you pay.
`,
  billing: `---
title: Billing
---

# Billing

Invoices are sent by e-mail on the first day of each month. You can pay by card or by bank transfer, and download
every invoice under **Billing** › **Invoices**.
`,
  'subscription-plans': `---
title: Subscription plans
---

# Subscription plans

| Plan | Price | Users |
| --- | --- | --- |
| Team | €29 a month | up to 10 |
| Business | €89 a month | unlimited |

Upgrade or downgrade at any time; the change applies from your next invoice.
`,
};

let platform: RunningBundledPlatform;
let receiver: Server;
let site: MarkdownSite;
let collector: Awaited<ReturnType<typeof startOtlpReceiver>>;
const deliveries: { header: string | undefined; body: string }[] = [];

// Long: the tier's synth bundles every function, beside the other tiers' tests.
beforeAll(async () => {
  // A company's small help center, on loopback (the bundles allow loopback).
  site = await startMarkdownSite(new Map(Object.entries(HELP_CENTER)), {
    name: 'Help center',
    home: '<h1>Help center</h1><p>Start with <a href="/docs/2fa">two-factor authentication</a>.</p>',
    footer: '<p>A help center written for this test.</p>',
    header: [['Billing', '/docs/billing']],
    published: new Date('2026-05-04T00:00:00Z'),
  });
  // An OTLP/HTTP collector on loopback the workspace's traces are pointed at.
  collector = await startOtlpReceiver();
  platform = await startBundledPlatform({ cdkOut: await synthesized(inject('cdkOut')), verifiedIdentities: [MAIL_DOMAIN, AGENT_MAIL_DOMAIN], logs: 'silent' });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      deliveries.push({ header: request.headers['x-service-signature'] as string | undefined, body });
      response.end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
}, 900_000);

afterAll(async () => {
  receiver?.close();
  await platform?.stop();
  await site?.close();
  await collector?.close();
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A browser's cookies: one jar per origin (each AWS host is its own origin here, one loopback port each). */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  cookieFor(url: string): string {
    return [...(this.jars.get(new URL(url).origin) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = this.cookieFor(url);
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    const jar = this.jars.get(new URL(url).origin) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    this.jars.set(new URL(url).origin, jar);
    return response;
  }

  /** GETs `url` and follows redirects, as a navigation does; answers the last response and its URL. */
  async navigate(url: string): Promise<{ response: Response; url: string }> {
    let current = url;
    for (let hop = 0; hop < 10; hop += 1) {
      const response = await this.fetch(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
      current = new URL(location, current).href;
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

const dashboardOrigin = () => new URL(platform.outputs.DashboardUrl!).origin;
const apiBase = () => platform.outputs.ApiUrl!;
const demoAgent = () => platform.demo.agentIds[0]!;
const browser = new Browser();
let csrf = '';
let apiKey = '';

/** A REST call as the dashboard makes it: on its own origin, with the session, CSRF token and workspace. */
async function dashboardCall(path: string, body?: unknown) {
  const response = await browser.fetch(`${dashboardOrigin()}/en/api/v1/${path}/`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { origin: dashboardOrigin(), 'content-type': 'application/json', 'x-csrf-token': csrf, 'x-workspace-id': platform.demo.workspaceId },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown>; error?: { code: string } } };
}

async function apiCall(path: string, options: { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const url = new URL(`${apiBase()}/${path}/`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const response = await fetch(url, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: { 'x-service-api-key': apiKey, 'content-type': 'application/json', ...options.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown>; error?: { code: string } } };
}

/** A visitor's question to the widget chat (a Function URL), from the widget's origin: the response, its text and its events. */
async function widgetChat(chatUrl: string, question: string) {
  const chat = await fetch(chatUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: WIDGET_ORIGIN },
    body: JSON.stringify({
      conversationId: crypto.randomUUID(),
      visitorId: crypto.randomUUID(),
      locale: 'en',
      messages: [{ role: 'user', content: question }],
    }),
  });
  const text = await chat.text();
  const events: { event: string; data: string }[] = [];
  createParser({ onEvent: (event) => events.push({ event: event.event ?? 'message', data: event.data }) }).feed(text);
  return { chat, text, events };
}

async function mailbox(): Promise<{ to: string; from: string | null; subject: string; text: string }[]> {
  return ((await (await fetch(platform.mailUrl)).json()) as { mail: { to: string; from: string | null; subject: string; text: string }[] }).mail;
}

describe('the deployed form, run locally', () => {
  it('serves the OpenAPI document from the Api bundle', async () => {
    const response = await fetch(`${apiBase()}/openapi.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('signs the owner in on the dashboard by a code SES delivers from the configured sender', async () => {
    const email = platform.demo.ownerEmail;
    const post = (path: string, body: unknown) =>
      browser.fetch(`${dashboardOrigin()}/en/api/v1/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: dashboardOrigin() },
        body: JSON.stringify(body),
      });
    expect((await post('auth/email/start', { email })).status).toBe(200);
    const mail = await until('the sign-in mail', async () =>
      (await mailbox()).find((message) => message.to === email && /sign-in code/i.test(message.subject)),
    );
    expect(mail.from).toContain(`@${MAIL_DOMAIN}`);
    expect(mail.text).toContain(dashboardOrigin());
    const verified = await post('auth/email/verify', { email, code: /\d{6}/.exec(mail.subject)![0] });
    expect(verified.status, await verified.clone().text()).toBe(200);
    const session = await dashboardCall('auth/session');
    expect(session.status).toBe(200);
    csrf = String(session.body.data.csrf_token);
    expect(csrf).not.toBe('');
  });

  it('creates an API key with the dashboard session', async () => {
    const created = await dashboardCall('keys/create', { name: 'Bundled test' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    apiKey = String(created.body.data.secret);
    expect(apiKey).toMatch(/^sk_live_/);
    expect((await apiCall('agents/list')).status).toBe(200);
  });

  it("points the workspace's traces at an OTLP collector (before the runs and chats below, which it then traces)", async () => {
    const set = await apiCall('telemetry/settings_update', { body: { otlp_endpoint: collector.endpoint, headers: { 'x-vendor-key': 'bundled-key' } } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.settings).toMatchObject({ otlp_endpoint: collector.endpoint, header_names: ['x-vendor-key'] });
  });

  it('lists the agents for the embed line at /v1/agents (spec 1) through the Api bundle: the key as Bearer, the bare array, no CORS', async () => {
    const url = `${new URL(apiBase()).origin}/v1/agents`;
    const listed = await fetch(url, { headers: { authorization: `Bearer ${apiKey}`, origin: WIDGET_ORIGIN } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await listed.json()) as { id: string }[])[0]!.id).toBe(demoAgent());
    const anonymous = await fetch(url);
    expect([anonymous.status, ((await anonymous.json()) as { error?: { code: string } }).error?.code]).toEqual([401, 'API_KEY_REQUIRED']);
  });

  it('runs a command whose run sends mail through the e-mail skill, and delivers a signed webhook', async () => {
    const hook = await apiCall('webhooks/create', {
      body: { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`, events: ['agent.command.completed', 'agent.command.failed'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const secret = String(hook.body.data.signing_secret);
    const command = await apiCall('agents/command', {
      body: { agent_id: demoAgent(), instruction: 'Send an email "Welcome" to bob@example.com', autonomy: 'full' },
      headers: { 'idempotency-key': 'bundled-welcome' },
    });
    expect(command.status, JSON.stringify(command.body)).toBe(202);
    const runId = String((command.body.data.run as { run_id: string }).run_id);
    const run = await until('the run to finish', async () => {
      const status = await apiCall('agents/command_status', { query: { run_id: runId } });
      return ['queued', 'running'].includes(String(status.body.data.status)) ? undefined : status.body.data;
    });
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', output: { result: 'ok', actions: ['email.send'] } });
    const sent = await until('the agent mail', async () =>
      (await mailbox()).find((message) => message.to === 'bob@example.com' && message.subject === 'Welcome'),
    );
    expect(sent.from).toContain(`@${AGENT_MAIL_DOMAIN}`);

    const delivery = await until('the webhook', async () => deliveries.find((candidate) => candidate.body.includes(runId)));
    const event: WebhookEvent = verify(delivery.body, delivery.header, secret);
    expect(event.event).toBe('agent.command.completed');
    expect(event.data).toMatchObject({ run_id: runId });
  });

  it('streams a run through the RunStream bundle on the dashboard origin: its steps with ids, then the run', async () => {
    const command = await apiCall('agents/command', {
      body: { agent_id: demoAgent(), instruction: 'Please add Sam Stream (sam.stream@example.com) to my contacts.', autonomy: 'full' },
    });
    expect(command.status, JSON.stringify(command.body)).toBe(202);
    const runId = String((command.body.data.run as { run_id: string }).run_id);
    const response = await fetch(`${dashboardOrigin()}/en/api/v1/agents/command_stream?run_id=${runId}`, { headers: { 'x-service-api-key': apiKey } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) parser.feed(read.value);
    const steps = events.filter((event) => event.event !== 'text_delta');
    expect(steps.map((event) => Number(event.id))).toEqual(steps.map((_, index) => index));
    expect(events.map((event) => event.event)).toEqual(expect.arrayContaining(['status', 'text_delta', 'text', 'tool_call', 'run']));
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ run_id: runId, status: 'completed' });
    const unknown = await fetch(`${dashboardOrigin()}/en/api/v1/agents/command_stream?run_id=cmd_unknown000000000000`, {
      headers: { 'x-service-api-key': apiKey },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'RUN_NOT_FOUND' } });
  });

  it('finishes stranded runs, starts due knowledge syncs and sweeps for expired conversations on the schedules the template gives them', async () => {
    const reports = Object.entries(await platform.fireSchedules());
    expect(reports.find(([id]) => id.startsWith('RunSweeper'))?.[1]).toEqual(
      expect.objectContaining({ enqueued: expect.any(Array), failed: expect.any(Array) }),
    );
    expect(reports.find(([id]) => id.startsWith('KnowledgeSchedule'))?.[1]).toEqual({ started: expect.any(Number) });
    expect(reports.find(([id]) => id.startsWith('RetentionSweeper'))?.[1]).toEqual({ resumed: 0, erased: 0, restamped: 0 });
  });

  it('answers the widget configuration with the chat Function URL, and streams a chat with a preset agent', async () => {
    const config = await fetch(`${new URL(apiBase()).origin}/v1/agents/${demoAgent()}/widget-config`, { headers: { origin: WIDGET_ORIGIN } });
    expect(config.status).toBe(200);
    expect(config.headers.get('access-control-allow-origin')).toBe(WIDGET_ORIGIN);
    const chatUrl = ((await config.json()) as { chat: { url: string } }).chat.url;
    expect(chatUrl.startsWith(platform.outputs.ChatUrl!)).toBe(true);

    const { chat, text, events } = await widgetChat(chatUrl, 'Where is the pricing?');
    expect(chat.status, text).toBe(200);
    expect(chat.headers.get('content-type')).toContain('text/event-stream');
    expect(
      events.filter((event) => event.event === 'error'),
      text,
    ).toEqual([]);
    expect(events.filter((event) => event.event === 'delta').length).toBeGreaterThan(0);
    expect(events.at(-1)?.event).toBe('done');
  });

  it("turns a mail SES receives into an e-mail conversation through the InboundMail bundle, and mails the agent's answer", async () => {
    const agent = (await apiCall('agents/get', { query: { agent_id: demoAgent() } })).body.data.agent as { email: string };
    expect(agent.email.endsWith(`@${AGENT_MAIL_DOMAIN}`)).toBe(true);
    const customer = 'dana@customer.example';
    const raw = new TextEncoder().encode(
      [
        `From: Dana <${customer}>`,
        `To: ${agent.email}`,
        'Subject: Where is my order?',
        `Message-ID: <${crypto.randomUUID()}@customer.example>`,
        `Date: ${new Date().toUTCString()}`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Hello, my order has not arrived yet. Can you help?',
        '',
      ].join('\r\n'),
    );
    // The template's receipt rule saves it to the bucket and notifies the topic, whose SQS subscription feeds the mail
    // queue; SES delivers at least once, here twice.
    expect(await platform.receiveMail({ from: customer, to: [agent.email], raw, deliveries: 2 })).toMatch(/^[0-9a-f]{40}$/);
    expect(await platform.receiveMail({ from: customer, to: ['nobody@elsewhere.example'], raw })).toBeUndefined();
    // The InboundMail bundle's first invocation loads it (and its LanceDB layer) in a fresh sandbox.
    const answer = await until("the agent's answer by mail", async () => (await mailbox()).find((message) => message.to === customer), 100_000);
    expect(answer).toMatchObject({ subject: 'Re: Where is my order?' });
    expect(answer.from).toContain(agent.email);
    const listed = await apiCall('conversations/list', { query: { agent_id: demoAgent() } });
    const conversations = (listed.body.data.conversations as { id: string; channel: string; email: { address: string; subject: string } | null }[]).filter(
      (item) => item.email?.address === customer,
    );
    expect(conversations).toEqual([expect.objectContaining({ channel: 'email', email: { address: customer, subject: 'Where is my order?' } })]);
    const transcript = await apiCall('conversations/get', { query: { conversation_id: conversations[0]!.id } });
    expect((transcript.body.data.messages as { role: string }[]).map((message) => message.role)).toEqual(['user', 'assistant']);
  }, 120_000);

  it('exported the spans of the runs and the widget reply above from the Runner and Chat bundles, before each invocation returned', async () => {
    // The e-mail run: its tool call and model calls, one trace under the agent's invocation.
    const runSpans = await until('the run spans', async () => {
      const spans = collector.spans.filter((span) => span.name.startsWith('execute_tool email'));
      return spans.length > 0 ? spans : undefined;
    });
    const runId = runSpans[0]!.attributes['platform.run.id'];
    expect(runId).toEqual(expect.stringMatching(/^cmd_/));
    const trace = collector.spans.filter((span) => span.traceId === runSpans[0]!.traceId);
    expect(trace.find((span) => span.name.startsWith('invoke_agent'))?.attributes['gen_ai.agent.id']).toBe(demoAgent());
    expect(trace.find((span) => span.name.startsWith('chat'))?.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));
    // The widget reply, from the Chat function.
    await until('the reply spans', async () =>
      collector.spans.find((span) => span.name.startsWith('invoke_agent') && span.attributes['gen_ai.conversation.id'] !== undefined),
    );
    expect(collector.headers.every((headers) => headers['x-vendor-key'] === 'bundled-key')).toBe(true);
    expect((await apiCall('telemetry/settings_update', { body: { otlp_endpoint: null } })).status).toBe(200);
  });

  // Long: the first requests of the Chat and RunStream sandboxes may be their cold starts, on a shared machine.
  it('hands a visitor to a teammate and back: the visitor stream from the Chat function URL, conversations/stream and conversations/inbox_stream from RunStream', async () => {
    const config = await fetch(`${new URL(apiBase()).origin}/v1/agents/${demoAgent()}/widget-config`, { headers: { origin: WIDGET_ORIGIN } });
    const visitor = widgetVisitor(((await config.json()) as { chat: { url: string } }).chat.url);
    const inboxUrl = `${dashboardOrigin()}/en/api/v1/conversations/inbox_stream?agent_id=${demoAgent()}`;
    const inbox = openEventStream(inboxUrl, { 'x-service-api-key': apiKey }, 30_000);
    const rowsOf = (stream: typeof inbox) =>
      stream.events
        .filter((event) => event.event === 'conversation')
        .map((event) => JSON.parse(event.data) as { id: string; handler: string; assignee: { id: string } | null })
        .filter((row) => row.id === visitor.conversationId);
    await inbox.waitFor(() => inbox.events.some((event) => event.event === 'ready'));
    expect((await visitor.say('I want to talk to a human')).handoff).toEqual({ handler: 'people', assignee: null });
    // Written by the Chat function, pushed by RunStream's poll of the workspace's inbox feed.
    await inbox.waitFor(() => rowsOf(inbox).some((row) => row.handler === 'people'));
    const lastId = inbox.events.at(-1)!.id!;
    inbox.drop();
    const live = visitor.live();
    const team = openEventStream(
      `${dashboardOrigin()}/en/api/v1/conversations/stream?conversation_id=${visitor.conversationId}`,
      { 'x-service-api-key': apiKey },
      30_000,
    );
    await live.waitFor(() => live.events.some((event) => event.event === 'state'));
    await team.waitFor(() => team.events.some((event) => event.event === 'state'));
    try {
      // While people have it the agent says nothing; the teammates' stream gets the visitor's message.
      expect((await visitor.say('Are you there?')).text).toBe('');
      await team.waitFor(() => liveMessages(team).some((message) => message.text === 'Are you there?'));

      const members = await apiCall('members/list');
      const ownerId = (members.body.data.members as { user_id: string }[])[0]!.user_id;
      expect((await apiCall('conversations/assign', { body: { conversation_id: visitor.conversationId, user_id: ownerId } })).status).toBe(200);
      const reply = await apiCall('conversations/reply', {
        body: { conversation_id: visitor.conversationId, text: 'Hi, I am here to help' },
        headers: { 'idempotency-key': `bundled-${visitor.conversationId}` },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      await live.waitFor(() => liveMessages(live).some((message) => message.role === 'teammate' && message.text === 'Hi, I am here to help'));

      expect((await apiCall('conversations/handback', { body: { conversation_id: visitor.conversationId } })).status).toBe(200);
      await live.waitFor(() => liveMessages(live).some((message) => message.event === 'handed_back'));
      // The inbox resumed after what it saw: the claim, the reply and the handback, in order, each change once.
      const resumed = openEventStream(inboxUrl, { 'x-service-api-key': apiKey, 'last-event-id': lastId }, 30_000);
      await resumed.waitFor(() => rowsOf(resumed).some((row) => row.handler === 'agent'));
      resumed.drop();
      const ids = resumed.events.map((event) => Number(event.id));
      expect(ids.every((id) => id > Number(lastId))).toBe(true);
      expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
      const answered = await visitor.say('Where is the pricing?');
      expect(answered.text).not.toBe('');
      expect(answered.handoff).toBeUndefined();
    } finally {
      live.drop();
      team.drop();
    }
  }, 120_000);

  describe('knowledge through the bundles: the consumer and schedule, LanceDB from its layer, the index on S3', () => {
    let sourceId = '';
    // The API key's rate limit (120 a minute, shared with the tests above) bounds how often a test may ask: once a
    // second, and after a 429 (nothing done) again a little later, as a client honouring Retry-After does.
    const POLL_MS = 1000;
    const call = async (...args: Parameters<typeof apiCall>): ReturnType<typeof apiCall> => {
      for (;;) {
        const answer = await apiCall(...args);
        if (answer.body.error?.code !== 'RATE_LIMITED') return answer;
        await sleep(2 * POLL_MS);
      }
    };
    type SourceView = { status: string; documents: number; error: string | null; last_synced_at: string | null };
    const sourceOf = async () => {
      const answer = await call('knowledge/source_get', { query: { source_id: sourceId } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data.source as SourceView;
    };
    const syncedAfter = (before: string | null) =>
      until(
        'the sync to finish',
        async () => {
          const source = await sourceOf();
          return source.status !== 'queued' && source.status !== 'indexing' && source.last_synced_at !== before ? source : undefined;
        },
        180_000,
        POLL_MS,
      );
    const askRest = async (question: string) => {
      const command = await call('agents/command', { body: { agent_id: demoAgent(), instruction: question } });
      expect(command.status, JSON.stringify(command.body)).toBe(202);
      const runId = String((command.body.data.run as { run_id: string }).run_id);
      return until(
        'the run to finish',
        async () => {
          const status = await call('agents/command_status', { query: { run_id: runId } });
          return ['queued', 'running'].includes(String(status.body.data.status))
            ? undefined
            : (status.body.data as { status: string; sources: { url: string | null; quote: string }[] });
        },
        60_000,
        POLL_MS,
      );
    };

    it('crawls a website source from its sitemap on the knowledge queue into the index on S3', async () => {
      const created = await call('knowledge/source_create', {
        body: { type: 'website', url: site.sitemapUrl, name: 'Help center' },
        headers: { 'idempotency-key': 'bundled-help-center' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      sourceId = String((created.body.data.source as { id: string }).id);
      const synced = await syncedAfter(null);
      expect(synced).toMatchObject({ status: 'ready', error: null });
      // The sitemap's pages and the home page.
      expect(synced.documents).toBe(site.slugs().length + 1);
    }, 200_000);

    it('answers a visitor in the widget chat from the crawled page, citing it', async () => {
      const config = await fetch(`${new URL(apiBase()).origin}/v1/agents/${demoAgent()}/widget-config`, { headers: { origin: WIDGET_ORIGIN } });
      const { chat, text, events } = await widgetChat(
        ((await config.json()) as { chat: { url: string } }).chat.url,
        'How do I enable two-factor authentication?',
      );
      expect(chat.status, text).toBe(200);
      expect(
        events.filter((event) => event.event === 'error'),
        text,
      ).toEqual([]);
      const said = events
        .filter((event) => event.event === 'delta')
        .map((event) => (JSON.parse(event.data) as { text?: string }).text ?? '')
        .join('');
      expect(said, text).toMatch(/2FA|two-factor/i);
      expect(said, text).toContain(site.pageUrl('2fa'));
    });

    it('indexes a file uploaded to a presigned S3 PUT, then finds it', async () => {
      const files = await call('knowledge/source_create', { body: { type: 'files', name: 'Handbook' }, headers: { 'idempotency-key': 'bundled-handbook' } });
      expect(files.status, JSON.stringify(files.body)).toBe(201);
      const filesId = String((files.body.data.source as { id: string }).id);
      const markdown = '# Warehouse hours\n\nThe Rotterdam warehouse ships orders from 7:00 to 15:00 on weekdays.\n';
      const bytes = Buffer.byteLength(markdown);
      const granted = await call('knowledge/document_upload_url', { body: { source_id: filesId, bytes, content_type: 'text/markdown' } });
      expect(granted.status, JSON.stringify(granted.body)).toBe(201);
      const { upload_id: uploadId, url, headers } = granted.body.data as { upload_id: string; url: string; headers: Record<string, string> };
      expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toContain('content-length');
      const early = await call('knowledge/document_upload', {
        body: { source_id: filesId, name: 'warehouse.md', content_type: 'text/markdown', upload_id: uploadId },
      });
      expect([early.status, early.body.error?.code]).toEqual([404, 'NOT_FOUND']);
      const put = await fetch(url, { method: 'PUT', headers, body: markdown });
      expect(put.status, await put.text()).toBe(200);
      const indexed = await call('knowledge/document_upload', {
        body: { source_id: filesId, name: 'warehouse.md', content_type: 'text/markdown', upload_id: uploadId },
      });
      expect(indexed.status, JSON.stringify(indexed.body)).toBe(201);
      expect(indexed.body.data.document).toMatchObject({ name: 'warehouse.md', status: 'indexed', chunks: expect.any(Number) });
      const found = await call('knowledge/search', { body: { query: 'When does the Rotterdam warehouse ship orders?', limit: 3 } });
      expect((found.body.data.results as { name: string; text: string }[])[0]).toMatchObject({
        name: 'warehouse.md',
        text: expect.stringContaining('7:00 to 15:00'),
      });
    });

    it('re-syncs a changed page on request, and a REST command cites the new content with its page', async () => {
      const before = (await sourceOf()).last_synced_at;
      site.setPage('billing', `${site.markdown('billing')}\n\n## Refunds\n\nA refund is paid back within 14 days of the request.\n`);
      const requested = await call('knowledge/source_sync', { body: { source_id: sourceId } });
      expect(requested.status, JSON.stringify(requested.body)).toBe(202);
      expect(await syncedAfter(before)).toMatchObject({ status: 'ready', documents: site.slugs().length + 1 });
      const run = await askRest('How many days until a refund is paid back?');
      expect(run.status).toBe('completed');
      const cited = run.sources.find((source) => /\/docs\/billing(#[\w-]+)?$/.test(source.url ?? ''));
      expect(cited?.quote, JSON.stringify(run.sources)).toContain('14 days');
    }, 200_000);
  });

  describe('the MCP access point of the stack', () => {
    const mcpUrl = () => platform.outputs.McpUrl!;
    const mcpOrigin = () => new URL(mcpUrl()).origin;

    it('challenges a call without a token with its protected resource metadata', async () => {
      const answer = await mcpCall(mcpOrigin(), undefined, 'tools/list');
      expect(answer.status).toBe(401);
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(answer.headers.get('www-authenticate') ?? '')?.[1];
      expect(metadataUrl).toBeDefined();
      const metadata = (await (await fetch(metadataUrl!)).json()) as { resource: string; authorization_servers: string[] };
      expect(metadata.resource).toBe(mcpUrl());
      const server = (await (await fetch(`${metadata.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
      expect(server.authorization_endpoint).toBe(`${mcpOrigin()}/oauth/authorize`);
    });

    it('sends a person without a session to the dashboard sign-in, with a Location', async () => {
      const client = await registerClient(mcpOrigin(), ['http://127.0.0.1:9/callback']);
      const url = authorizeUrl(mcpOrigin(), {
        clientId: client.body.client_id!,
        redirectUri: 'http://127.0.0.1:9/callback',
        pkce: newPkce(),
        scope: 'agents:read',
      });
      const answer = await new Browser().fetch(url);
      expect([302, 303], `${answer.status} ${JSON.stringify([...answer.headers])}`).toContain(answer.status);
      const signIn = new URL(answer.headers.get('location')!, url);
      expect(signIn.pathname).toBe('/dashboard/');
      const page = await fetch(signIn);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<!doctype html>/i);
    });

    it('lets the dashboard-signed-in person consent, and the assistant list the agents with the token', async () => {
      const redirectUri = 'http://127.0.0.1:9/callback';
      const client = await registerClient(mcpOrigin(), [redirectUri]);
      const pkce = newPkce();
      // The browser that signed in on the dashboard opens the authorization page; a sign-in detour comes back to it.
      let page = await browser.navigate(authorizeUrl(mcpOrigin(), { clientId: client.body.client_id!, redirectUri, pkce, scope: 'agents:read' }));
      const returnTo = new URL(page.url).searchParams.get('return_to');
      if (new URL(page.url).pathname === '/dashboard/' && returnTo) page = await browser.navigate(new URL(returnTo, page.url).href);
      const html = await page.response.text();
      expect(page.response.status, `${page.url}: ${html.slice(0, 300)}`).toBe(200);
      const hidden = Object.fromEntries(
        [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1]!, match[2]!.replace(/&amp;/g, '&')]),
      );
      expect(hidden.csrf_token, `no consent form at ${page.url}: ${html.slice(0, 300)}`).toBeDefined();
      const form = new URLSearchParams({ ...hidden, decision: 'approve', workspace_id: platform.demo.workspaceId, perm_agents_read: '1' });
      const pageOrigin = new URL(page.url).origin;
      const decided = await browser.fetch(`${pageOrigin}/oauth/authorize`, {
        method: 'POST',
        headers: { origin: pageOrigin, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      expect(decided.status, await decided.clone().text()).toBe(303);
      const back = new URL(decided.headers.get('location')!);
      expect(back.origin + back.pathname).toBe(redirectUri);
      const tokens = await tokenRequest(mcpOrigin(), {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        code_verifier: pkce.verifier,
        redirect_uri: redirectUri,
        client_id: client.body.client_id!,
        resource: mcpUrl(),
      });
      expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
      const listed = await mcpCall(mcpOrigin(), tokens.body.access_token, 'tools/call', { name: 'list_agents', arguments: {} });
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body.result)).toContain(demoAgent());
    });
  });
});
