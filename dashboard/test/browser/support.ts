import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { PlatformOptions, RunningPlatform } from '../../../lambdas/src/entries/local/platform';
import { apiClient, newDemoKey, type ApiCall, startTestPlatform } from '../../../lambdas/test/support/platform';
import { launchChromium } from '../../../test/browser/chromium';

export const SHOTS = resolve(import.meta.dirname, '../../../test-results/dashboard');
export const OWNER_EMAIL = 'owner@demo.example';
const MASTER_KEY = 'm'.repeat(48);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface DashboardHarness {
  platform: RunningPlatform;
  browser: Browser;
  /** http://localhost:<port>: the dashboard's origin (WebAuthn refuses IP addresses as relying party). */
  origin: string;
  /** The same server by IP: another origin, for the widget and cross-origin checks. */
  otherOrigin: string;
  agentId: string;
  /** The demo workspace's API key, and the REST API with it. */
  key: string;
  api: ApiCall;
  /** Moves the platform's clock (session expiry). */
  advanceClock(ms: number): void;
  /** The platform's clock now (ahead of the machine's once advanced): what its mail's `sent_at` is measured by. */
  now(): Date;
  open(path?: string, options?: BrowserContextOptions): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  stop(): Promise<void>;
}

/**
 * `env`: further settings of the platform (e.g. the offline model's pace, or WEBHOOK_ALLOW_LOCAL to crawl a site on
 * loopback); `mailResolver`: the DNS the platform's mail authentication asks (offline in a test).
 */
export async function startDashboard(env: Record<string, string> = {}, options: Pick<PlatformOptions, 'mailResolver'> = {}): Promise<DashboardHarness> {
  const key = newDemoKey();
  let offset = 0;
  const [platform, browser] = await Promise.all([
    // One person clicks through every screen, in two themes and two widths, within a minute or two: far past the
    // per-person request limit a real session meets, which these suites do not test.
    startTestPlatform({
      ...options,
      env: { SERVICE_DEMO_API_KEY: key, SERVICE_MASTER_KEY: MASTER_KEY, RATE_LIMIT_PER_MINUTE: '100000', ...env },
      now: () => new Date(Date.now() + offset),
    }),
    launchChromium(),
  ]);
  mkdirSync(SHOTS, { recursive: true });
  const port = new URL(platform.url).port;
  const origin = `http://localhost:${port}`;
  return {
    platform,
    browser,
    origin,
    otherOrigin: `http://127.0.0.1:${port}`,
    agentId: platform.demo.agentId,
    key,
    api: apiClient(`${origin}/en/api/v1`, key),
    advanceClock: (ms) => void (offset += ms),
    now: () => new Date(Date.now() + offset),
    async open(path = '/dashboard/', options = {}) {
      // A real browser's language: in this machine's C locale headless Chromium reports `en-US@posix`, which is no
      // BCP 47 tag, and uPlot (the Insights charts) hands navigator.language to Intl.NumberFormat as it loads.
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US', ...options });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) errors.push(message.text());
      });
      await page.goto(new URL(path, origin).href);
      return { page, context, errors };
    },
    async stop() {
      await browser.close();
      await platform.stop();
    },
  };
}

interface Mail {
  to: string;
  subject: string;
  text: string;
  sent_at: string;
  /** Message-ID, In-Reply-To, References, Reply-To, Auto-Submitted as sent (lower-case names). */
  headers: Record<string, string>;
}

/** The newest 6-digit code mailed to `email` at or after `since` (the platform's clock, `h.now()`) (waits for it: mail is written as the request is handled). */
export async function mailedCode(h: DashboardHarness, email: string, since: string): Promise<string> {
  // A generous deadline: on a busy machine the browser and the platform share two cores with other test files.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { mail } = (await (await fetch(`${h.origin}/dev/mail.json`)).json()) as { mail: Mail[] };
    const found = mail.find((message) => message.to === email && message.sent_at >= since && /\b\d{6}\b/.test(`${message.subject} ${message.text}`));
    if (found) return /\b(\d{6})\b/.exec(`${found.subject} ${found.text}`)![1]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no sign-in code mailed to ${email}`);
}

/** The newest mail to `email` whose text matches `pattern`. */
export async function mailTo(h: DashboardHarness, email: string, pattern: RegExp): Promise<Mail> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { mail } = (await (await fetch(`${h.origin}/dev/mail.json`)).json()) as { mail: Mail[] };
    const found = mail.find((message) => message.to === email && pattern.test(message.text));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail to ${email} matching ${pattern}`);
}

/** Sign in through the page with the e-mailed code; ends on the screen `landing` names (Agents, or a return_to's). */
export async function signIn(h: DashboardHarness, page: Page, email: string, landing: string | RegExp = 'Agents'): Promise<void> {
  const since = h.now().toISOString();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const code = await mailedCode(h, email, since);
  await page.getByLabel(/6-digit code/).fill(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await heading(page, landing);
}

/** A page of the dashboard signed in as `email` (the demo owner unless told), on the Agents screen. */
export async function signedInPage(h: DashboardHarness, email = OWNER_EMAIL): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await h.open('/dashboard/');
  await heading(page, 'Sign in');
  await signIn(h, page, email);
  return { page, errors };
}

/** Waits for the screen's heading (h1) to name it. */
export const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

export async function axeViolations(page: Page): Promise<{ id: string; nodes: number; help: string; targets: string[] }[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      nodes: violation.nodes.length,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
  });
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/**
 * The screen at 375 px in the dark: once `ready` shows, axe clean, nothing wider than the viewport, a screenshot
 * `name`; then back to the desktop width in the light.
 */
export async function checkNarrowDark(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    await ready();
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, name);
  } finally {
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

/** What the page's Copy button put on the clipboard. */
/**
 * The file the page downloads when `click` runs: its suggested name and its text, read through the browser's
 * connection (the tier's shared Chromium runs in another process, so the download has no local path).
 */
export async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
}

export const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/**
 * A page served by a second tiny server on 127.0.0.1: another origin than the dashboard's localhost, and a real
 * loopback page (Chromium lets only such pages load from loopback addresses).
 */
export async function otherSite(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A new workspace with its first owner, as an operator creates one (master key). */
export async function provisionWorkspace(h: DashboardHarness, name: string, ownerEmail: string): Promise<{ workspaceId: string }> {
  const response = await fetch(`${h.origin}/en/api/v1/admin/workspaces/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-master-key': MASTER_KEY },
    body: JSON.stringify({ name, owner_email: ownerEmail }),
  });
  const body = (await response.json()) as { data: { workspace: { id: string } } };
  if (!response.ok) throw new Error(`provisioning failed: ${response.status} ${JSON.stringify(body)}`);
  return { workspaceId: body.data.workspace.id };
}
