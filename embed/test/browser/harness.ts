import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { PlatformOptions, RunningPlatform } from '../../../lambdas/src/entries/local/platform';
import { apiClient, newDemoKey, type ApiCall, startTestPlatform } from '../../../lambdas/test/support/platform';
import { launchChromium } from '../../../test/browser/chromium';

export const ARTIFACTS = resolve(import.meta.dirname, '../../../test-artifacts');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Harness {
  platform: RunningPlatform;
  browser: Browser;
  agentId: string;
  /** The REST API with the demo workspace's key. */
  api: ApiCall;
  /** A fresh context (own sessionStorage) and page; console errors and page errors are collected. */
  /** `path` null leaves the page blank (for hostPage). */
  open(path?: string | null, options?: BrowserContextOptions): Promise<TestPage>;
  stop(): Promise<void>;
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  errors: string[];
  warnings: string[];
}

export async function startHarness(options: PlatformOptions = {}): Promise<Harness> {
  const key = newDemoKey();
  const [platform, browser] = await Promise.all([startTestPlatform({ ...options, env: { SERVICE_DEMO_API_KEY: key, ...options.env } }), launchChromium()]);
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    platform,
    browser,
    agentId: platform.demo.agentId,
    api: apiClient(platform.apiBaseUrl, key),
    async open(path = '/', options = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
      const page = await context.newPage();
      // What a page waits for crosses the platform (a reply streamed, a message pushed): generous for a busy machine.
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      const warnings: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().includes('favicon')) errors.push(message.text());
        if (message.type() === 'warning') warnings.push(message.text());
      });
      if (path !== null) await page.goto(new URL(path, platform.url).href);
      return { page, context, errors, warnings };
    },
    async stop() {
      await browser.close();
      await platform.stop();
    },
  };
}

/** Serve a custom host page at `path` on the platform's origin (so /embed and the API stay same-origin). */
export async function hostPage(page: Page, url: string, html: string, headers: Record<string, string> = {}): Promise<void> {
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers, body: html }));
  await page.goto(url);
}

export function embedTag(attributes: Record<string, string>): string {
  const attrs = Object.entries(attributes)
    .map(([name, value]) => `${name}="${value}"`)
    .join(' ');
  return `<script src="/embed/loader.js" ${attrs} async></script>`;
}

/** Run axe-core in the page (it pierces open shadow roots) and return the violations. */
export async function axeViolations(page: Page): Promise<{ id: string; nodes: number; help: string }[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; help: string; nodes: unknown[] }[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, help: violation.help, nodes: violation.nodes.length }));
  });
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });

/** Selectors inside the widget's shadow root (Playwright's CSS engine pierces open shadow roots). */
export const W = {
  fab: '#service-chat .scw-fab',
  panel: '#service-chat .scw-panel',
  input: '#service-chat textarea',
  teaser: '#service-chat .scw-teaser',
  nudge: '#service-chat .scw-nudge',
  badge: '#service-chat .scw-badge',
  botDone: '#service-chat .scw-msg[data-role=bot][data-done=true]',
  userMsg: '#service-chat .scw-msg[data-role=user]',
  live: '#service-chat .scw-sr',
};

/** Record every bus event in window.__events (host-side listeners, as a site would add them). */
export async function recordEvents(page: Page): Promise<void> {
  await page.waitForFunction(() => Boolean(window.__service_chat));
  await page.evaluate(() => {
    const w = window as unknown as { __events: [string, unknown][] };
    w.__events = [];
    for (const name of ['navigate', 'uiAction', 'widgetOpened', 'widgetClosed', 'userMessage', 'botResponse'] as const) {
      window.__service_chat!.on(name, (payload) => w.__events.push([name, payload]));
    }
  });
}

export const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events);

/**
 * Lets a test decide when something held goes on: `pass()` waits until a `release()` opens it, the oldest waiter
 * first; a release with nobody waiting lets the next `pass()` through at once (so the order of the two never races).
 */
export function turnstile() {
  const waiting: (() => void)[] = [];
  let opened = 0;
  return {
    pass: (): Promise<void> => (opened > 0 ? (opened--, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve))),
    release: (): void => {
      const next = waiting.shift();
      if (next) next();
      else opened++;
    },
  };
}

/**
 * A host app as a site builds it: `source` (importing the package's npm build, e.g. '@service/chat-widget/react')
 * bundled by esbuild into `/app/main.js` (with its chunks when `splitting`), served to `page` on the platform's origin.
 * Returns every file's path and the list of those the page has requested so far.
 */
export async function serveApp(page: Page, origin: string, source: string, splitting = false): Promise<{ files: string[]; requested: string[] }> {
  const bundle = await build({
    stdin: { contents: source, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    splitting,
    format: 'esm',
    outdir: '/app',
    entryNames: 'main',
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
  });
  const requested: string[] = [];
  for (const file of bundle.outputFiles) {
    await page.route(`${origin}${file.path}`, (route) => {
      requested.push(file.path);
      return route.fulfill({ contentType: 'text/javascript', body: Buffer.from(file.contents) });
    });
  }
  return { files: bundle.outputFiles.map((file) => file.path), requested };
}
