import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hostPage, serveApp, startHarness, type Harness } from './harness';

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
    const { page, errors } = await h.open(null);
    const { files, requested } = await serveApp(page, h.platform.url, APP, true);
    await hostPage(
      page,
      `${h.platform.url}/test/react.html`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React host</title></head><body><div id="root"></div>
      <script>window.AGENT_ID = ${JSON.stringify(h.agentId)}</script><script type="module" src="/app/main.js"></script></body></html>`,
    );
    await page.waitForSelector('[data-service-chat] .scw-fab');
    expect(files.length).toBeGreaterThan(1);
    expect(requested.length).toBeGreaterThan(1);
    const trigger = page.locator('.scw-trigger-custom');
    await trigger.focus();
    expect(await trigger.evaluate((el) => el === document.activeElement && el.getAttribute('role'))).toBe('button');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-service-chat] .scw-panel');
    expect(errors).toEqual([]);
  });
});

// Spec 1 exports ChatPointerOverlay and RichMessageRenderer beside ChatWidget: a React page that mounts only these two
// (no widget anywhere) still runs the three UI actions, and a card's Action button still emits uiAction.
const OVERLAY_APP = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatPointerOverlay, RichMessageRenderer } from '@service/chat-widget/react';
createRoot(document.getElementById('root')).render([
  createElement(ChatPointerOverlay, { key: 'overlay' }),
  createElement(RichMessageRenderer, { key: 'rich', text: 'Press [Action:Show me|pointer|#cta] to see it.' }),
]);
`;

const OVERLAY = '[data-service-chat-overlay]';

async function overlayPage(): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await h.open(null);
  await serveApp(page, h.platform.url, OVERLAY_APP);
  await hostPage(
    page,
    `${h.platform.url}/test/overlay.html`,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Overlay alone</title></head><body><div id="root"></div>
    <button id="cta">Call to action</button><div style="height:2500px"></div><p id="far">Far away</p>
    <script type="module" src="/app/main.js"></script></body></html>`,
  );
  await page.waitForSelector('.scw-action');
  await page.waitForFunction(() => document.querySelector('[data-service-chat-overlay]')?.shadowRoot);
  return { page, errors };
}

const emit = (page: Page, action: string, target: string) =>
  page.evaluate(([a, t]) => window.__service_chat!.emit('uiAction', { action: a as 'pointer', target: t! }), [action, target] as const);

describe('ChatPointerOverlay and RichMessageRenderer without ChatWidget', () => {
  it('the overlay alone runs pointer, highlight and scroll from the bus', async () => {
    const { page, errors } = await overlayPage();
    expect(await page.locator('[data-service-chat], #service-chat').count()).toBe(0);

    await emit(page, 'pointer', '#cta');
    await page.waitForSelector(`${OVERLAY} .scw-pointer`);
    await page.waitForSelector(`${OVERLAY} .scw-pointer`, { state: 'detached' });

    await emit(page, 'highlight', '#cta');
    const ring = await page.waitForSelector(`${OVERLAY} .scw-ring`);
    const [box, target] = await Promise.all([ring.boundingBox(), page.locator('#cta').boundingBox()]);
    expect(box!.x).toBeLessThan(target!.x);
    expect(box!.x + box!.width).toBeGreaterThan(target!.x + target!.width);

    expect(await page.evaluate(() => scrollY)).toBe(0);
    await emit(page, 'scroll', '#far');
    await page.waitForFunction(() => {
      const rect = document.getElementById('far')!.getBoundingClientRect();
      return rect.top >= 0 && rect.bottom <= innerHeight;
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a card's Action button emits uiAction to the host's listener, and the overlay points", async () => {
    const { page, errors } = await overlayPage();
    await page.evaluate(() => {
      const w = window as unknown as { heard: unknown[] };
      w.heard = [];
      window.__service_chat!.on('uiAction', (request) => w.heard.push(request));
    });
    await page.click('.scw-action');
    expect(await page.evaluate(() => (window as unknown as { heard: unknown[] }).heard)).toEqual([{ action: 'pointer', target: '#cta' }]);
    await page.waitForSelector(`${OVERLAY} .scw-pointer`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
