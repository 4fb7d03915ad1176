import { resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostPage, screenshot, startHarness, type Harness } from './harness';

// The open chat protocol: useChat from the AI SDK drives the widget's chat endpoint in a small React page.

let h: Harness;
let bundle: string;
beforeAll(async () => {
  const [harness, built] = await Promise.all([
    startHarness(),
    build({
      entryPoints: [resolve(import.meta.dirname, 'use-chat-app.tsx')],
      bundle: true,
      format: 'esm',
      write: false,
      jsx: 'automatic',
      jsxImportSource: 'react',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    }),
  ]);
  h = harness;
  bundle = built.outputFiles[0]!.text;
});
afterAll(async () => {
  await h?.stop();
});

describe('useChat from @ai-sdk/react', () => {
  it('streams the agent reply as UI messages, with navigation and UI actions as data parts', async () => {
    const { page, context, errors } = await h.open(null);
    await page.route(`${h.platform.url}/test/use-chat.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: bundle }));
    const config = { agentId: h.agentId, conversationId: crypto.randomUUID(), visitorId: crypto.randomUUID() };
    await page.route(`${h.platform.url}/test/use-chat-config.js`, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: `window.__chat = ${JSON.stringify(config)};` }),
    );
    await hostPage(
      page,
      `${h.platform.url}/test/use-chat.html`,
      '<!doctype html><html lang="en"><head><title>useChat</title><script src="/test/use-chat-config.js"></script><script type="module" src="/test/use-chat.js"></script></head><body><div id="root"></div></body></html>',
    );
    await page.fill('input[aria-label=Message]', 'Please show me the pricing and take me there');
    await page.click('button[type=submit]');
    await page.waitForSelector('#status:text("ready")');
    await page.waitForSelector('.message[data-role=assistant] .text');
    expect(await page.textContent('.message[data-role=user]')).toBe('Please show me the pricing and take me there');
    expect(await page.textContent('.message[data-role=assistant] .text')).toContain('[Page:Pricing|/pricing]');
    expect(JSON.parse((await page.textContent('[data-type=data-navigate]'))!)).toEqual({ href: '/pricing' });
    expect(JSON.parse((await page.textContent('[data-type=data-uiAction]'))!)).toEqual({ action: 'pointer', target: '#pricing' });
    await screenshot(page, 'use-chat');

    // A second turn carries the history as UI messages; the same conversation continues.
    await page.fill('input[aria-label=Message]', 'Which skills can agents use?');
    await page.click('button[type=submit]');
    await page.waitForFunction(() => document.querySelectorAll('.message[data-role=assistant] .text').length === 2);
    await page.waitForSelector('#status:text("ready")');
    expect(errors).toEqual([]);
    await context.close();
  });
});
