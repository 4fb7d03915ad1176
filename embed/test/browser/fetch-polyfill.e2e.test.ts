import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { embedTag, events, hostPage, recordEvents, startHarness, W, type Harness } from './harness';

// An older host page replaces window.fetch with whatwg-fetch, the common polyfill over XMLHttpRequest: its responses
// have no `body` stream. The widget's chat must still answer, whether the polyfill came before the widget or after.

const POLYFILL = readFileSync(createRequire(import.meta.url).resolve('whatwg-fetch/dist/fetch.umd.js'), 'utf8');
// The polyfill installs itself only where fetch is missing; a site that wants it everywhere assigns it, as here.
const INSTALL = 'window.fetch = window.WHATWGFetch.fetch;';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

async function hostWithPolyfill(installedFirst: boolean) {
  const t = await h.open(null);
  await t.page.route(`${h.platform.url}/test/fetch.umd.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: POLYFILL }));
  const polyfill = `<script src="/test/fetch.umd.js"></script><script>${INSTALL}</script>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Older host</title>${installedFirst ? polyfill : ''}</head>
    <body><main><h1>Older host page</h1></main>
    ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`;
  await hostPage(t.page, `${h.platform.url}/test/older-host.html`, html);
  await t.page.waitForSelector(`${W.fab}[data-ready=true]`);
  if (!installedFirst) {
    await t.page.addScriptTag({ url: '/test/fetch.umd.js' });
    await t.page.addScriptTag({ content: INSTALL });
  }
  expect(await t.page.evaluate(() => (window.fetch as typeof fetch & { polyfill?: boolean }).polyfill)).toBe(true);
  await recordEvents(t.page);
  return t;
}

/** The visitor types a question and presses Enter; resolves with how the chat request went out (fetch or xhr). */
async function ask(page: Page, text: string): Promise<string> {
  const chat = page.waitForRequest((request) => request.url().endsWith('/chat') && request.method() === 'POST');
  await page.click(W.fab);
  await page.fill(W.input, text);
  await page.keyboard.press('Enter');
  const request = await chat;
  await page.waitForSelector(W.botDone);
  return request.resourceType();
}

describe('a host page that replaces window.fetch with a polyfill without streams', () => {
  it('installed before the widget loads: the chat answers, read whole through the polyfill', async () => {
    const { page, context, errors } = await hostWithPolyfill(true);
    expect(await ask(page, 'What does pricing look like?')).toBe('xhr');
    expect(await page.locator(`${W.botDone}.scw-error`).count()).toBe(0);
    expect(await page.textContent(`${W.botDone} .scw-bubble`)).toContain('Offline demo model');
    const replies = (await events(page)).filter(([name]) => name === 'botResponse');
    expect(replies).toHaveLength(1);
    expect((replies[0]![1] as { raw: string }).raw).toContain('Offline demo model');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('installed after the widget loaded: the chat keeps the fetch the loader found, and streams', async () => {
    const { page, context, errors } = await hostWithPolyfill(false);
    expect(await ask(page, 'What does pricing look like?')).toBe('fetch');
    expect(await page.locator(`${W.botDone}.scw-error`).count()).toBe(0);
    expect(await page.textContent(`${W.botDone} .scw-bubble`)).toContain('Offline demo model');
    expect((await events(page)).filter(([name]) => name === 'botResponse')).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
