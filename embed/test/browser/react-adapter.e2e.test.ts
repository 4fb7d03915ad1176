import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostPage, startHarness, type Harness } from './harness';

// The React adapter as a host app uses it: the package's npm build bundled by esbuild with code splitting, so the
// widget UI is a separate chunk that ChatWidget imports when it mounts.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const APP = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatTrigger, ChatWidget } from '@service/chat-widget/react';
createRoot(document.getElementById('root')).render([
  createElement(ChatWidget, { key: 'widget', agentId: window.AGENT_ID, config: { showDelay: 0 } }),
  createElement(ChatTrigger, { key: 'trigger', variant: 'custom', systemPrompt: 'The visitor asked from the custom trigger' }, 'Ask about pricing'),
]);
`;

describe('@service/chat-widget/react in a browser', () => {
  it('mounts the widget from its lazily loaded chunk; the custom trigger opens it from the keyboard', async () => {
    const bundle = await build({
      stdin: { contents: APP, resolveDir: import.meta.dirname, loader: 'js' },
      bundle: true,
      splitting: true,
      format: 'esm',
      outdir: '/app',
      entryNames: 'main',
      define: { 'process.env.NODE_ENV': '"production"' },
      write: false,
      logLevel: 'silent',
    });
    const { page, errors } = await h.open(null);
    const requested: string[] = [];
    for (const file of bundle.outputFiles) {
      await page.route(`${h.platform.url}${file.path}`, (route) => {
        requested.push(file.path);
        return route.fulfill({ contentType: 'text/javascript', body: Buffer.from(file.contents) });
      });
    }
    await hostPage(
      page,
      `${h.platform.url}/test/react.html`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React host</title></head><body><div id="root"></div>
      <script>window.AGENT_ID = ${JSON.stringify(h.agentId)}</script><script type="module" src="/app/main.js"></script></body></html>`,
    );
    await page.waitForSelector('[data-service-chat] .scw-fab');
    expect(bundle.outputFiles.length).toBeGreaterThan(1);
    expect(requested.length).toBeGreaterThan(1);
    const trigger = page.locator('.scw-trigger-custom');
    await trigger.focus();
    expect(await trigger.evaluate((el) => el === document.activeElement && el.getAttribute('role'))).toBe('button');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-service-chat] .scw-panel');
    expect(errors).toEqual([]);
  });
});
