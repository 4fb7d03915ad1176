import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openConversation } from '../../../lambdas/src/domains/conversations/conversations';
import { startOtlpReceiver } from '../../../lambdas/test/support/otlp-receiver';
import {
  axeViolations,
  clipboard,
  heading,
  mailTo,
  mailedCode,
  otherSite,
  OWNER_EMAIL,
  provisionWorkspace,
  screenshot,
  SHOTS,
  signIn,
  startDashboard,
  type DashboardHarness,
} from './support';

// The dashboard in headless chromium against the local platform (one platform and one browser for the file), at
// http://localhost:<port>/dashboard/.

let h: DashboardHarness;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
beforeAll(async () => {
  // WEBHOOK_ALLOW_LOCAL: traces go to an OTLP receiver on loopback.
  [h, receiver] = await Promise.all([startDashboard({ WEBHOOK_ALLOW_LOCAL: '1' }), startOtlpReceiver()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([h?.stop(), receiver?.close()]);
});

/** Every screen of the signed-in dashboard: its route and the heading it must carry. */
const screens = (agentId: string): [string, string, RegExp][] => [
  ['agents', '#/agents', /^Agents$/],
  ['waiting-for-you', '#/approvals', /^Waiting for you$/],
  ['settings', `#/agents/${agentId}/settings`, /^Settings$/],
  ['widget-embed', `#/agents/${agentId}/embed`, /^Widget Embed$/],
  ['runs', `#/agents/${agentId}/runs`, /^Runs$/],
  ['conversations', `#/agents/${agentId}/conversations`, /^Conversations$/],
  ['evals', `#/agents/${agentId}/evals`, /^Evals$/],
  ['insights', `#/agents/${agentId}/insights`, /^Insights$/],
  ['credentials', '#/developers/credentials', /Developers › Credentials/],
  ['webhooks', '#/developers/webhooks', /Developers › Webhooks/],
  ['mcp-connections', '#/developers/mcp', /Developers › MCP connections/],
  ['traces', '#/developers/traces', /Developers › Traces/],
  ['roles-access', '#/company/roles', /Company › Roles & Access/],
  ['audit-log', '#/company/audit', /Company › Audit log/],
  ['usage', '#/usage', /^Usage & billing$/],
  ['members', '#/members', /^Members$/],
  ['account', '#/account', /^Account$/],
];

/** Opens a screen by its route (reloading it when it is already open, so its lists are fresh). */
async function go(page: Page, hash: string, name: RegExp) {
  if (await page.evaluate((target) => location.hash === target, hash)) await page.reload();
  else await page.evaluate((target) => (location.hash = target), hash);
  await heading(page, name);
  // Lists settle (no loading line left).
  await page.waitForFunction(() => !document.querySelector('main [role=status]')?.textContent?.startsWith('Loading'));
}

describe('serving', () => {
  it('serves /dashboard/ with a CSP without unsafe-inline and frame-ancestors none; the preview page only to itself', async () => {
    const response = await fetch(`${h.origin}/dashboard/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    const script = /<script type="module" src="([^"]+)"/.exec(html)![1]!;
    const chunk = await fetch(`${h.origin}/dashboard/${script}`);
    expect(chunk.headers.get('content-type')).toContain('javascript');
    const bare = await fetch(`${h.origin}/dashboard`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/dashboard/']);
    const preview = await fetch(`${h.origin}/dashboard/preview.html`);
    expect(preview.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
  });

  it('shows Sign in to a visitor without a session: heading, code form, passkey button; no axe violations, light and dark, 375 px', async () => {
    const { page, context, errors } = await h.open('/dashboard/', { viewport: { width: 375, height: 740 } });
    await heading(page, 'Sign in');
    expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in-375-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in-375-dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works on the bound address too (127.0.0.1): sign-in by code, Origin checks follow the address used', async () => {
    const { page, context } = await h.open(`${h.otherOrigin}/dashboard/`);
    await heading(page, 'Sign in');
    await signIn(h, page, OWNER_EMAIL);
    await go(page, '#/developers/credentials', /Credentials/);
    expect(await page.getByRole('button', { name: 'Create Key' }).isEnabled()).toBe(true);
    await context.close();
  });

  it('refuses to be framed by another page', async () => {
    const { page, context } = await h.open('/dashboard/');
    await page.route(`${h.otherOrigin}/framer.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>Framer</title><iframe src="${h.origin}/dashboard/"></iframe>` }),
    );
    await page.goto(`${h.otherOrigin}/framer.html`);
    await page.waitForTimeout(300);
    const framed = page.frames().find((frame) => frame.url().startsWith(`${h.origin}/dashboard/`));
    expect((await framed?.$('h1').catch(() => null)) ?? null).toBeNull();
    await context.close();
  });
});

describe('signed in as the demo owner', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await h.open('/dashboard/');
    page = opened.page;
    errors = opened.errors;
    close = () => opened.context.close();
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.origin });
  });
  afterAll(async () => {
    await close?.();
  });

  it('signs in with the code from /dev/mail.json using the keyboard only', async () => {
    const since = h.now().toISOString();
    await heading(page, 'Sign in');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.type(OWNER_EMAIL);
    expect(await page.inputValue('#email')).toBe(OWNER_EMAIL);
    await page.keyboard.press('Enter');
    // The form moves on to the code once the platform has answered (and mailed it).
    await page.waitForFunction(() => document.activeElement?.id === 'code');
    const code = await mailedCode(h, OWNER_EMAIL, since);
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await heading(page, 'Agents');
    // The navigation by keyboard: Tab reaches the links, Enter opens the screen and moves the focus to its heading.
    await page.getByRole('link', { name: 'Credentials' }).focus();
    await page.keyboard.press('Enter');
    await heading(page, /Credentials/);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
  });

  it('has every screen, each with its heading, without axe violations in light and dark mode, at 1280 and 375 px', async () => {
    for (const [name, hash, title] of screens(h.agentId)) {
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.emulateMedia({ colorScheme: 'light' });
      await go(page, hash, title);
      expect(await axeViolations(page), `${name} light`).toEqual([]);
      await screenshot(page, `${name}-light`);
      await page.setViewportSize({ width: 375, height: 740 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForTimeout(50);
      expect(await axeViolations(page), `${name} dark 375`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} fits 375 px`).toBeLessThanOrEqual(375);
      await screenshot(page, `${name}-375-dark`);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('creates a key shown once, the API accepts it, Revoke asks first, then the API answers 401', async () => {
    await go(page, '#/developers/credentials', /Credentials/);
    await page.getByLabel('Key name').fill('Browser test');
    await page.getByRole('button', { name: 'Create Key' }).click();
    const secretBox = page.locator('.secret-value');
    await secretBox.waitFor();
    const secret = (await secretBox.textContent())!.trim();
    await screenshot(page, 'credentials-key-shown-once');
    await page.getByRole('region', { name: 'Your new API key' }).getByRole('button', { name: 'Copy' }).click();
    expect(await clipboard(page)).toBe(secret);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await secretBox.count()).toBe(0);
    const row = page.getByRole('row', { name: /Browser test/ });
    expect(await row.textContent()).toContain(`${secret.slice(0, 8)}`);
    expect(await row.textContent()).toContain(`…${secret.slice(-4)}`);

    const before = await h.api('agents/list/', { key: secret });
    expect(before.status).toBe(200);

    await row.getByRole('button', { name: /Revoke/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.waitFor();
    await screenshot(page, 'credentials-revoke-confirm');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    // The revocation answers once no instance admits the key any more (about a second): the row's button waits with it.
    await row.getByRole('button', { name: /Revoke/, disabled: true }).waitFor();
    await row.getByText(/Revoked/).waitFor();
    const after = await h.api('agents/list/', { key: secret });
    expect(after.status).toBe(401);
  });

  it('adds a webhook endpoint: the signing secret shown once, then the subscription with its state and its delivery log', async () => {
    await go(page, '#/developers/webhooks', /Webhooks/);
    await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/service');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = page.getByRole('region', { name: 'Signing secret' });
    await secret.waitFor();
    expect(await secret.locator('.secret-value').first().textContent()).toMatch(/\w{16,}/);
    expect(await secret.locator('.secret-also').textContent()).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await secret.count()).toBe(0);
    const row = page.getByRole('row', { name: /hooks\.example\.com/ });
    expect(await row.textContent()).toContain('Active');
    await row.getByRole('button', { name: 'Delivery log' }).click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event queued.' }).waitFor();
    // The attempt lands in the log (the receiver does not exist: it fails, and can be redelivered).
    const attempt = page.getByRole('row', { name: /webhook\.test/ }).first();
    await expect.poll(async () => (await page.getByRole('button', { name: 'Refresh' }).click(), await attempt.count()), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await attempt.getByRole('button', { name: /Redeliver/ }).isEnabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'webhooks-delivery-log');
  });

  it('copies the one-line snippet (absolute loader URL, agent UUID) and chats with the agent on another origin', async () => {
    await go(page, `#/agents/${h.agentId}/embed`, /^Widget Embed$/);
    await page.getByRole('button', { name: 'Copy snippet' }).click();
    const snippet = await clipboard(page);
    expect(snippet).toBe(`<script src="${h.origin}/embed/loader.js" data-agent-id="${h.agentId}" async></script>`);

    // A shop on 127.0.0.1 and another port: another origin (the seeded agent allows http://127.0.0.1:*).
    const shop = await otherSite(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1></main>${snippet}</body></html>`);
    const site = await h.browser.newContext();
    const host = await site.newPage();
    host.setDefaultTimeout(10_000);
    await host.goto(shop.url);
    await host.locator('#service-chat .scw-fab').click();
    await host.locator('#service-chat textarea').fill('What does it cost?');
    await host.keyboard.press('Enter');
    await host.locator('#service-chat .scw-msg[data-role=bot][data-done=true]').waitFor({ timeout: 15_000 });
    expect(await host.locator('#service-chat .scw-msg[data-role=bot]').last().textContent()).toMatch(/Offline demo model/);
    // The visitor rates the answer down and says why (Insights shows it below).
    const thumbs = host.locator('#service-chat .scw-msg[data-role=bot][data-done=true] [data-role=rating]');
    await thumbs.locator('button[data-rating=down]').click();
    await thumbs.locator('textarea').fill('It did not name a price.');
    await thumbs.locator('form button').click();
    await thumbs.getByText('Thank you for your feedback').waitFor();
    await host.screenshot({ path: `${SHOTS}/widget-on-another-origin.png` });
    await site.close();
    await shop.close();
  });

  it("saves that widget conversation as a scenario, shows a bad scenario's error, runs the suite on the draft and publishes it", async () => {
    await go(page, `#/agents/${h.agentId}/conversations`, /^Conversations$/);
    await page.getByRole('tab', { name: /^All / }).click();
    await page.locator('.conversations button').first().click();
    await page.getByRole('list', { name: 'Transcript' }).getByText('What does it cost?').waitFor();
    await page.getByRole('button', { name: 'Save as scenario' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved “Conversation of / })
      .getByRole('link', { name: 'Evals' })
      .click();
    await heading(page, /^Evals$/);
    await page.getByRole('row', { name: /Conversation of .* widget 1/ }).waitFor();

    await page.getByLabel('New scenario (JSON)').fill('{"name": "Empty", "turns": []}');
    await page.getByRole('button', { name: 'Save scenario' }).click();
    expect(await page.getByRole('alert').filter({ hasText: /turns/ }).textContent()).toMatch(/turns/);

    await page.getByLabel('Persona (draft)').fill('Short answers only.');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft saved; the live agent is unchanged.' }).waitFor();
    await page.getByRole('button', { name: 'Run on the draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft: pass rate 100% (1 of 1 passed)' }).waitFor({ timeout: 20_000 });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'evals-draft-run');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Published: the draft is live.' }).waitFor();
    const agent = await h.api<{ agent: { persona: string } }>('agents/get/', { query: { agent_id: h.agentId } });
    expect(agent.body.data.agent.persona).toBe('Short answers only.');
  });

  it('shows that widget conversation under Conversations › All with its transcript', async () => {
    await go(page, `#/agents/${h.agentId}/conversations`, /^Conversations$/);
    await page.getByRole('tab', { name: /^All / }).click();
    const conversation = page.locator('.conversations button').first();
    await conversation.click();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('What does it cost?').waitFor();
    expect(await transcript.textContent()).toContain('Offline demo model');
    expect(await page.locator('.about').textContent()).toContain('The agent answers');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'conversations-transcript');

    // More than a page (50): Load more brings the rest, then goes away.
    const start = { agentId: h.agentId, workspaceId: h.platform.demo.workspaceId, locale: 'en' };
    for (let index = 0; index < 50; index++)
      await openConversation(h.platform.deps, { ...start, conversationId: `conv-page-${String(index).padStart(4, '0')}`, visitorId: `visitor-${index}` });
    await go(page, `#/agents/${h.agentId}/conversations`, /^Conversations$/);
    await page.getByRole('tab', { name: /^All / }).click();
    await page.locator('.conversations > li').nth(49).waitFor();
    expect(await page.locator('.conversations > li').count()).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.locator('.conversations > li').nth(50).waitFor();
    expect(await page.locator('.conversations > li').count()).toBe(51);
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
  });

  it("shows that conversation's figures on Insights: charts whose table views hold the API's numbers, the rating comment, no axe violations", async () => {
    await go(page, `#/agents/${h.agentId}/insights`, /^Insights$/);
    const range = { from: await page.inputValue('#insights-from'), to: await page.inputValue('#insights-to') };
    const today = h.now().toISOString().slice(0, 10);
    // The default range: the last 30 days, today included.
    expect([range.to, Date.parse(range.to) - Date.parse(range.from)]).toEqual([today, 29 * 24 * 60 * 60 * 1000]);
    const { days, total } = (
      await h.api<{ days: Record<string, number | string | null>[]; total: Record<string, number> }>('insights/agent/', {
        query: { agent_id: h.agentId, ...range },
      })
    ).body.data;
    expect(total).toMatchObject({ answers: expect.any(Number), ratings_down: 1 });
    expect(total.conversations).toBeGreaterThanOrEqual(1);
    expect(await page.locator('[data-total=conversations] dd').textContent()).toBe(String(total.conversations));
    expect(await page.locator('[data-total=ratings_up] dd').textContent()).toBe(`${total.ratings_up} / 1`);
    expect(await page.locator('.uplot-box canvas').count()).toBe(5);

    // The table view of the Conversations chart: a real table (caption, headers) with the API's numbers for each day.
    const chart = page.getByRole('region', { name: 'Conversations', exact: true });
    await chart.getByText('Table view').click();
    const table = chart.getByRole('table', { name: 'Conversations per day' });
    expect(await table.locator('thead th').allTextContents()).toEqual(['Date', 'Conversations', 'Resolved by the agent', 'Handed to people', 'Abandoned']);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
    const expected = days.map((day) => [day.date, day.conversations, day.resolved, day.handed_off, day.abandoned].map(String));
    expect(rows).toEqual(expected);
    expect(rows.find(([date]) => date === today)?.[1]).not.toBe('0');

    const comments = page.getByRole('table', { name: 'Rating comments, newest first' });
    expect(await comments.textContent()).toContain('It did not name a price.');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'insights-table-view');
  });

  it("sends traces to an OTLP endpoint: the vendor's header kept write-only, and a widget reply's spans counted as delivered", async () => {
    await go(page, '#/developers/traces', /Traces/);
    expect(await page.getByText('Tracing is off: nothing is recorded.').isVisible()).toBe(true);
    await page.getByLabel('OTLP/HTTP traces endpoint').fill(receiver.endpoint);
    await page.getByLabel('Headers, one per line as name: value').fill('x-honeycomb-team: hc-secret-4242');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Traces go to ${receiver.endpoint}` })
      .waitFor();
    await go(page, '#/developers/traces', /Traces/);
    expect(await page.getByText(/Set: x-honeycomb-team\./).isVisible()).toBe(true);
    expect(await page.content()).not.toContain('hc-secret-4242');
    const reply = await fetch(`${h.origin}/v1/agents/${h.agentId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: h.origin },
      body: JSON.stringify({
        conversationId: crypto.randomUUID(),
        visitorId: crypto.randomUUID(),
        locale: 'en',
        messages: [{ role: 'user', content: 'Hello' }],
      }),
    });
    await reply.text();
    await expect.poll(() => receiver.spans.some((span) => span.name.startsWith('invoke_agent')), { timeout: 15_000 }).toBe(true);
    expect(receiver.headers[0]?.['x-honeycomb-team']).toBe('hc-secret-4242');
    await expect
      .poll(async () => (await go(page, '#/developers/traces', /Traces/), await page.getByText(/[1-9]\d* spans delivered/).count()), { timeout: 15_000 })
      .toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'traces');
    await page.getByRole('button', { name: 'Turn tracing off' }).click();
    await page.getByRole('status').filter({ hasText: 'Tracing is off.' }).waitFor();
  });

  it("saves the agent's settings (agents/update) and the live preview frames the real widget under the CSP", async () => {
    await go(page, `#/agents/${h.agentId}/settings`, /^Settings$/);
    await page.getByLabel(/Allowed origins/).fill(`${h.otherOrigin}\n${h.origin}`);
    await page.getByLabel('Teaser word').fill('Hello');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const agent = await h.api<{ agent: { teaser_word: string; allowed_origins: string[] } }>('agents/get/', { query: { agent_id: h.agentId } });
    expect(agent.body.data.agent).toMatchObject({ teaser_word: 'Hello', allowed_origins: [h.otherOrigin, h.origin] });
    const preview = page.frameLocator('iframe[title="Live widget preview"]');
    await preview.locator('#service-chat .scw-fab').waitFor();
    await screenshot(page, 'settings-saved');
  });

  it('gives a command from the Runs screen and shows its status, result, output and usage', async () => {
    await go(page, `#/agents/${h.agentId}/runs`, /^Runs$/);
    await page.getByLabel('Command').fill('List the open tasks');
    await page.getByRole('button', { name: 'Give the command' }).click();
    const run = page.locator('.run', { hasText: 'List the open tasks' }).first();
    await run.and(page.locator('[data-status=completed]')).waitFor({ timeout: 20_000 });
    expect(await run.textContent()).toMatch(/read_only · \d+ tokens/);
    await run.getByText('Output').click();
    expect(await run.locator('pre').textContent()).toContain('"result"');
    await screenshot(page, 'runs-after-command');
  });

  it('stops a waiting run from the Runs screen after confirming: it ends cancelled, stopped by the signed-in person', async () => {
    await h.platform.queue.stop();
    try {
      const accepted = await h.api<{ run: { run_id: string } }>('agents/command/', {
        body: { agent_id: h.agentId, instruction: 'Draft the quarterly summary' },
      });
      await go(page, `#/agents/${h.agentId}/runs`, /^Runs$/);
      const run = page.locator('.run', { hasText: 'Draft the quarterly summary' }).first();
      await run.getByRole('button', { name: /^Stop the run/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Stop this run?' });
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Stop the run', exact: true }).click();
      await run.and(page.locator('[data-status=cancelled]')).waitFor();
      expect(await run.getByRole('button', { name: /^Stop the run/ }).count()).toBe(0);
      const status = await h.api<{ status: string; cancelled_by: string }>('agents/command_status/', { query: { run_id: accepted.body.data.run.run_id } });
      expect(status.body.data.status).toBe('cancelled');
      expect(status.body.data.cancelled_by).toMatch(/^(?!api_key$)\S+$/);
      await screenshot(page, 'runs-stopped');
    } finally {
      h.platform.queue.start();
    }
  });

  it('grants a capability with one click and a run uses the tool; revokes it and the next run has no such tool', async () => {
    // Commands made with an API key act for the role admin: its column decides which tools they get.
    const cell = page.locator('button[data-role=admin][data-capability="tasks.create"]');
    const settled = (pressed: boolean) =>
      page.waitForSelector(`button[data-role=admin][data-capability="tasks.create"][aria-pressed=${pressed}]:not([disabled])`);
    await go(page, '#/company/roles', /Roles & Access/);
    // Start from denied, whatever the seed granted.
    if ((await cell.getAttribute('aria-pressed')) === 'true') {
      await cell.click();
      await settled(false);
    }
    await cell.click();
    await settled(true);
    await screenshot(page, 'roles-access-granted');
    const granted = await h.api<{ grants: { role: string; capability: string }[] }>('grants/list/', { query: { role: 'admin' } });
    expect(granted.body.data.grants.map((grant) => grant.capability)).toContain('tasks.create');

    const runWith = async (instruction: string) => {
      const accepted = await h.api<{ run: { run_id: string } }>('agents/command/', { body: { agent_id: h.agentId, instruction, autonomy: 'full' } });
      expect(accepted.status).toBe(202);
      await go(page, `#/agents/${h.agentId}/runs`, /^Runs$/);
      const run = page.locator('.run', { hasText: instruction }).first();
      await run.and(page.locator('[data-status=completed], [data-status=failed]')).waitFor({ timeout: 20_000 });
      await run.getByText('Output').click();
      return run.locator('pre').textContent();
    };
    expect(await runWith('Create a task titled "Call Acme back" due 2030-01-02')).toMatch(/"actions": \[\s*"tasks.create"/);
    await screenshot(page, 'runs-with-tool');
    // Its timeline shows the tool call, readable by everyone (axe).
    const withTool = page.locator('.run', { hasText: 'Call Acme back' }).first();
    await withTool.getByText('Steps', { exact: true }).click();
    await withTool.locator('.timeline .step.tool_call', { hasText: 'tasks.create' }).waitFor();
    expect(await withTool.locator('.timeline .step').first().textContent()).toContain('Status queued');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'run-timeline');

    await go(page, '#/company/roles', /Roles & Access/);
    await cell.click();
    await settled(false);
    const without = await runWith('Create a task titled "Call Beta back" due 2030-01-03');
    // The model is no longer offered tasks__create (it reaches for what is left, e.g. tasks__list).
    expect(without).toMatch(/"actions": \[/);
    expect(without).not.toMatch(/"actions": \[[^\]]*"tasks\.create"/);
    expect(without).not.toContain('tasks__create');

    // Those runs are on the bill: the day's bar and the agent's row.
    await go(page, '#/usage', /^Usage & billing$/);
    expect(await page.locator('.chart .bar[height]:not([height="0"])').count()).toBeGreaterThan(0);
    expect(await page.getByRole('row', { name: /^Ada/ }).count()).toBe(1);
    await screenshot(page, 'usage-after-runs');
  });

  it('invites a member by e-mail; the member signs in through the link and sees Create Key disabled, and the API refuses with 403', async () => {
    await go(page, '#/members', /^Members$/);
    await page.getByLabel('E-mail address').fill('member@demo.example');
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent' }).waitFor();
    const invitation = await mailTo(h, 'member@demo.example', /invitation=/);
    const link = /(https?:\/\/\S+invitation=\S+)/.exec(invitation.text)![1]!;

    const memberContext = await h.browser.newContext({ viewport: { width: 1280, height: 860 } });
    const member = await memberContext.newPage();
    const since = h.now().toISOString();
    await member.goto(new URL(new URL(link).pathname + new URL(link).search, h.origin).href);
    await heading(member, 'Sign in');
    const code = await mailedCode(h, 'member@demo.example', since);
    await member.getByLabel(/6-digit code/).fill(code);
    await member.getByRole('button', { name: 'Sign in', exact: true }).click();
    await heading(member, 'Agents');
    await go(member, '#/developers/credentials', /Credentials/);
    const create = member.getByRole('button', { name: 'Create Key' });
    expect(await create.isVisible()).toBe(true);
    expect(await create.isDisabled()).toBe(true);
    expect(await member.getByText(/Your role here is/).textContent()).toContain('member');
    expect(await axeViolations(member)).toEqual([]);
    await screenshot(member, 'credentials-as-member');
    const refused = await member.evaluate(async () => {
      const session = (await (await fetch('/en/api/v1/auth/session/')).json()) as { data: { csrf_token: string; workspaces: { id: string }[] } };
      const response = await fetch('/en/api/v1/keys/create/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-CSRF-Token': session.data.csrf_token, 'X-Workspace-Id': session.data.workspaces[0]!.id },
        body: JSON.stringify({ name: 'sneaky' }),
      });
      return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('FORBIDDEN');
    // Elsewhere too: grants, inviting and agent settings are shown, disabled; commands stay open to members.
    await go(member, '#/company/roles', /Roles & Access/);
    expect(await member.locator('button.cell').first().isDisabled()).toBe(true);
    await go(member, '#/members', /^Members$/);
    expect(await member.getByRole('button', { name: 'Invite' }).isDisabled()).toBe(true);
    await go(member, `#/agents/${h.agentId}/settings`, /^Settings$/);
    expect(await member.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
    expect(await member.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await go(member, `#/agents/${h.agentId}/runs`, /^Runs$/);
    expect(await member.getByRole('button', { name: 'Give the command' }).isEnabled()).toBe(true);
    await memberContext.close();

    // The owner changes the member's role (on change, no Save), then removes them after confirming.
    await go(page, '#/members', /^Members$/);
    const roleOf = async () =>
      (await h.api<{ members: { email: string; role: string }[] }>('members/list/')).body.data.members.find((person) => person.email === 'member@demo.example')
        ?.role;
    await page.getByLabel('Role of member@demo.example').selectOption('admin');
    await expect.poll(roleOf).toBe('admin');
    await page.getByRole('button', { name: 'Remove member@demo.example' }).click();
    await page.getByRole('dialog', { name: 'Remove this member?' }).getByRole('button', { name: 'Remove member' }).click();
    await expect.poll(roleOf).toBeUndefined();
  });

  it('cancels a pending invitation after confirming, and names the owner on Account', async () => {
    await go(page, '#/members', /^Members$/);
    await page.getByLabel('E-mail address').fill('maybe@demo.example');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent' }).waitFor();
    const cancel = page.getByRole('button', { name: 'Cancel the invitation to maybe@demo.example' });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'members-pending-invitation');
    await cancel.click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this invitation?' });
    await dialog.waitFor();
    await screenshot(page, 'members-cancel-invitation-confirm');
    await dialog.getByRole('button', { name: 'Cancel invitation' }).click();
    await cancel.waitFor({ state: 'detached' });
    expect(await page.getByText('Invitation sent').count()).toBe(0);
    const pending = (await h.api<{ invitations: { email: string }[] }>('members/list/')).body.data.invitations;
    expect(pending.map((invitation) => invitation.email)).not.toContain('maybe@demo.example');

    await go(page, '#/account', /^Account$/);
    await page.getByLabel('Display name').fill('  Demo Owner  ');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('status').filter({ hasText: 'Your display name is now Demo Owner.' }).waitFor();
    expect(await page.getByLabel('Display name').inputValue()).toBe('Demo Owner');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'account-display-name');
    const members = (await h.api<{ members: { email: string; display_name: string }[] }>('members/list/')).body.data.members;
    expect(members.find((member) => member.email === OWNER_EMAIL)?.display_name).toBe('Demo Owner');
  });

  it('switches between the workspaces of a person in several: every screen follows the picked one', async () => {
    await provisionWorkspace(h, 'Second Company', OWNER_EMAIL);
    await page.reload();
    await heading(page, /.+/);
    const switcher = page.getByLabel('Workspace');
    expect(await switcher.locator('option').allTextContents()).toEqual(expect.arrayContaining(['Demo Company (owner)', 'Second Company (owner)']));
    await go(page, '#/agents', /^Agents$/);
    expect(await page.locator('.cards .card').count()).toBeGreaterThan(0);
    await switcher.selectOption({ label: 'Second Company (owner)' });
    await page.getByText('No agents yet').waitFor();
    // Hire from a preset there.
    await page.getByLabel('Name (optional)').fill('Nova');
    await page.getByRole('button', { name: 'Hire' }).click();
    await page.getByRole('heading', { name: 'Nova' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'workspace-switcher-hired');
    await switcher.selectOption({ label: 'Demo Company (owner)' });
    await page.locator('.cards .card').first().waitFor();
  });

  it('refuses a form posted from another origin with the session cookie', async () => {
    const before = (await h.api<{ keys: unknown[] }>('keys/list/')).body.data.keys.length;
    // localhost on another port: the same site, so the Lax cookie goes along; the Origin check refuses it.
    const evil = `http://localhost:${Number(new URL(h.origin).port) + 1}/evil.html`;
    await page.route(evil, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Evil</title><form method="post" enctype="text/plain" action="${h.origin}/en/api/v1/keys/create/"><input name='{"name":"evil","x":"' value='"}'></form><p>go</p>`,
      }),
    );
    await page.goto(evil);
    const [response] = await Promise.all([page.waitForResponse(`${h.origin}/en/api/v1/keys/create/`), page.evaluate(() => document.forms[0]!.submit())]);
    expect(response.status()).toBe(403);
    expect(await response.text()).toContain('FORBIDDEN');
    expect((await h.api<{ keys: unknown[] }>('keys/list/')).body.data.keys.length).toBe(before);
    await page.unroute(evil);
    await page.goto(`${h.origin}/dashboard/#/agents`);
    await heading(page, 'Agents');
  });

  it('registers a passkey with the virtual authenticator, signs out, signs in with it, and removes it after confirming', async () => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await go(page, '#/account', /^Account$/);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('button', { name: /Remove passkey/ }).waitFor();
    await screenshot(page, 'account-passkey');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await heading(page, 'Sign in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    // Signed in again, on the screen it left (Account), the passkey now used.
    await heading(page, /^Account$/);
    expect(await page.getByText(`Signed in as ${OWNER_EMAIL}`).isVisible()).toBe(true);
    await page.getByText(/last used (?!never)/).waitFor();
    // Removing it asks first.
    await page.getByRole('button', { name: /Remove passkey/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this passkey?' });
    await dialog.waitFor();
    await screenshot(page, 'account-passkey-remove-confirm');
    await dialog.getByRole('button', { name: 'Remove passkey' }).click();
    await page.getByText('No passkey yet.').waitFor();
  });

  it('ran every screen and action above without a page error or a Content-Security-Policy violation', () => {
    expect(errors).toEqual([]);
  });

  it('sends an expired session back to Sign in, and returns to the screen after signing in again', async () => {
    await go(page, '#/developers/webhooks', /Webhooks/);
    // Past the 12-hour idle expiry: the next call answers 401 and the page goes to Sign in, keeping where it was.
    h.advanceClock(13 * 60 * 60 * 1000);
    await page.evaluate(() => (location.hash = '#/usage'));
    await heading(page, 'Sign in');
    expect(new URL(page.url()).searchParams.get('return_to')).toBe('/dashboard/#/usage');
    await screenshot(page, 'session-expired-sign-in');
    await signIn(h, page, OWNER_EMAIL, /Usage & billing/);
    expect(new URL(page.url()).search).toBe('');
  });
});
