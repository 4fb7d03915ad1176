import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHostileModel, type HostileModel } from '../../../lambdas/test/widget/hostile-model';
import { embedTag, events, hostPage, recordEvents, screenshot, startHarness, W, type Harness } from './harness';

// Issue 14: the widget against a hostile model (an OpenAI-compatible server on loopback), a hostile host page and a
// demanding visitor, in headless chromium against the real local platform.

let model: HostileModel;
let h: Harness;
beforeAll(async () => {
  model = await startHostileModel();
  h = await startHarness({ env: { MODEL: model.setting } });
});
afterAll(async () => {
  await h?.stop();
  await model?.close();
});

const shadow = <T>(page: Page, fn: (root: ShadowRoot) => T) =>
  page.evaluate(`(${fn.toString()})(document.querySelector('#service-chat').shadowRoot)`) as Promise<T>;

async function widgetPage(options: { attributes?: Record<string, string>; head?: string; body?: string; viewport?: { width: number; height: number } } = {}) {
  const t = await h.open(null, options.viewport ? { viewport: options.viewport } : {});
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>${options.head ?? ''}</head><body>
    <main><h1>Host page</h1></main>${options.body ?? ''}
    ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0', ...options.attributes })}</body></html>`;
  await hostPage(t.page, `${h.platform.url}/test/host.html`, html);
  await t.page.waitForSelector(`${W.fab}[data-ready=true]`);
  await recordEvents(t.page);
  return t;
}

const busEmit = (page: Page, name: string, payload?: unknown) =>
  page.evaluate(([n, p]) => window.__service_chat!.emit(n as never, p as never), [name, payload] as const);

async function ask(page: Page, text: string, replies: number) {
  await busEmit(page, 'send', { text, openFirst: true });
  await page.waitForFunction(
    (count) => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg[data-role=bot][data-done=true]').length >= count,
    replies,
  );
}

const lastBot = (page: Page) => page.locator(W.botDone).last();

describe('a hostile model', () => {
  it('a 5,000-character reply does not break the conversation, nor does an over-long stored history', async () => {
    const { page, context } = await widgetPage();
    await ask(page, 'a long answer please', 1);
    expect((await lastBot(page).textContent())!.length).toBe(4000);
    await ask(page, 'thanks', 2);
    expect(await lastBot(page).textContent()).toBe('You said: thanks');

    // A history kept by an older widget, with a bot message longer than the endpoint accepts.
    await page.evaluate((agentId) => {
      const key = `service-chat:conversation:${agentId}`;
      const stored = JSON.parse(sessionStorage.getItem(key)!);
      stored.messages.push({ id: crypto.randomUUID(), role: 'bot', text: 'b'.repeat(5000), done: true });
      sessionStorage.setItem(key, JSON.stringify(stored));
    }, h.agentId);
    await page.reload();
    await page.waitForSelector(`${W.fab}[data-ready=true]`);
    await ask(page, 'still there?', 4);
    expect(await lastBot(page).textContent()).toBe('You said: still there?');
    await context.close();
  });

  it('ten navigate calls open no tab and move no page: the off-site ones are refused, the site’s own is one card, followed only on click', async () => {
    const { page, context } = await widgetPage();
    const pages: string[] = [];
    context.on('page', (opened) => pages.push(opened.url()));
    await page.evaluate(() => window.__service_chat!.on('navigate', () => undefined));
    await ask(page, 'please navigate everywhere', 1);
    const card = page.locator('#service-chat .scw-offer [data-marker=Page]');
    await card.waitFor();
    // evil.example is neither a retrieved passage nor a page of the agent's site: the link policy refuses it.
    expect(await card.textContent()).toBe('Open /en/account/delete');
    expect(await page.locator('#service-chat [data-marker=Link]').count()).toBe(0);
    expect(page.url()).toBe(`${h.platform.url}/test/host.html`);
    expect(pages).toEqual([]);
    expect((await events(page)).filter(([name]) => name === 'navigate')).toEqual([]);
    await screenshot(page, 'hostile-navigate-offer');
    await card.click();
    expect((await events(page)).filter(([name]) => name === 'navigate').map(([, payload]) => payload)).toEqual([{ href: '/en/account/delete' }]);
    expect(pages).toEqual([]);
    await context.close();
  });

  it('a destructive-looking path is offered, never followed unasked', async () => {
    const { page, context } = await widgetPage();
    await page.evaluate(() => window.__service_chat!.on('navigate', () => undefined));
    await ask(page, 'delete my account', 1);
    const card = page.locator('#service-chat .scw-offer [data-marker=Page]');
    await card.waitFor();
    expect(await card.textContent()).toBe('Open /en/account/delete');
    expect((await events(page)).filter(([name]) => name === 'navigate')).toEqual([]);
    await card.click();
    expect((await events(page)).filter(([name]) => name === 'navigate').map(([, payload]) => payload)).toEqual([{ href: '/en/account/delete' }]);
    await context.close();
  });

  it('links hidden behind tab characters are plain text; a host following href stays on the site', async () => {
    const { page, context } = await widgetPage();
    await page.evaluate(() => window.__service_chat!.on('navigate', () => undefined));
    await ask(page, 'show me tabs', 1);
    const hrefs = await page.$$eval('#service-chat .scw-msg a, #service-chat [data-marker]', (nodes) =>
      nodes.map((node) => node.getAttribute('href') ?? node.textContent),
    );
    expect(hrefs).toEqual(['Pricing']);
    // The links behind tabs lead off the site: they are removed, their labels kept as plain text.
    expect(await lastBot(page).textContent()).toBe('See docs and guide or Pricing.');
    await page.click('#service-chat [data-marker=Page]');
    expect((await events(page)).filter(([name]) => name === 'navigate').map(([, payload]) => payload)).toEqual([{ href: '/pricing' }]);
    await context.close();
  });
});

/**
 * A bare API that serves its own host page (the widget from the platform), answers widget-config with a short idle
 * timeout, and never finishes a reply.
 */
async function stallingApi(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url === '/host.html') {
      const tag = `<script src="${h.platform.url}/embed/loader.js" data-agent-id="${h.agentId}" data-api-url="${url}" data-show-delay="0" async></script>`;
      return response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><html lang="en"><head><title>Stall</title></head><body>${tag}</body></html>`);
    }
    if (request.url?.endsWith('/widget-config')) {
      return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ agent: { name: 'Stall' }, chat: { idleTimeoutMs: 1500 } }));
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('event: delta\ndata: {"text":"Let me think"}\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, server };
}

describe('timeouts and recovery', () => {
  it('a widget-config request that never answers: defaults after the deadline, then teaser and nudge', async () => {
    const t = await h.open(null);
    await t.page.route('**/widget-config', () => undefined); // never answered
    const html = `<!doctype html><html><head><title>x</title></head><body>${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '0' })}</body></html>`;
    await hostPage(t.page, `${h.platform.url}/test/hang.html`, html);
    await t.page.waitForSelector(`${W.fab}.scw-loading`);
    await t.page.waitForSelector(`${W.fab}[data-ready=true]`, { timeout: 15_000 });
    await t.page.waitForSelector(W.teaser);
    expect(t.warnings.some((text) => text.includes('generic defaults'))).toBe(true);
    await t.context.close();
  });

  it('a reply that stalls: the error shows, typing stops and Send works again', async () => {
    const api = await stallingApi();
    try {
      const { page, context } = await h.open(`${api.url}/host.html`);
      await page.waitForSelector(`${W.fab}[data-ready=true]`);
      await ask(page, 'hello', 1);
      expect(await lastBot(page).textContent()).toContain('took too long');
      expect(await page.isDisabled('#service-chat .scw-send')).toBe(false);
      expect(await page.locator('#service-chat .scw-typing').count()).toBe(0);
      await context.close();
    } finally {
      api.server.closeAllConnections();
      api.server.close();
    }
  });

  it('a host send during a reply waits for it instead of being dropped', async () => {
    const { page, context } = await widgetPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      '**/v1/agents/*/chat',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await busEmit(page, 'send', { text: 'first question', openFirst: true });
    await page.waitForSelector('#service-chat .scw-typing');
    await busEmit(page, 'send', { text: 'second question' });
    release();
    await page.waitForFunction(
      () => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg[data-role=bot][data-done=true]').length === 2,
    );
    expect(await page.locator(W.userMsg).allTextContents()).toEqual(['first question', 'second question']);
    expect(await page.locator(W.botDone).allTextContents()).toEqual(['You said: first question', 'You said: second question']);
    await context.close();
  });
});

describe('what a visitor sees', () => {
  it('the demo teaser greets with the agent name highlighted; teaser and nudge never overlap', async () => {
    const t = await h.open(null);
    const html = `<!doctype html><html><head><title>x</title></head><body>${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '0', 'data-idle-nudge-delay': '0' })}</body></html>`;
    await hostPage(t.page, `${h.platform.url}/test/teaser.html`, html);
    await t.page.waitForSelector(W.teaser);
    expect(await t.page.textContent(`${W.teaser} .scw-teaser-text`)).toBe('Hi, I am Ada. Need help with anything?');
    expect(await t.page.textContent(`${W.teaser} .scw-hl`)).toBe('Ada');
    await screenshot(t.page, 'teaser');
    await busEmit(t.page, 'nudge', { text: 'Psst', duration: 800 });
    await t.page.waitForSelector(W.nudge);
    expect(await t.page.locator(W.teaser).count()).toBe(0);
    await t.page.waitForSelector(W.nudge, { state: 'detached' });
    await t.page.waitForSelector(W.teaser);
    await t.context.close();
  });

  it('no autoscroll while the visitor reads further up; a bounded announcement; the input grows; the header stays one line', async () => {
    const t = await h.open(null);
    await t.page.route('**/widget-config', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.agent.role = 'Senior customer success and onboarding specialist for enterprise accounts in every region';
      await route.fulfill({ response, json: body });
    });
    const html = `<!doctype html><html><head><title>x</title></head><body>${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0' })}</body></html>`;
    await hostPage(t.page, `${h.platform.url}/test/visitor.html`, html);
    const page = t.page;
    await page.waitForSelector(`${W.fab}[data-ready=true]`);
    await busEmit(page, 'open');
    for (let i = 0; i < 4; i++) await busEmit(page, 'botMessage', { text: `Message ${i} `.repeat(120) });
    await page.waitForFunction(() => {
      const log = document.querySelector('#service-chat')!.shadowRoot!.querySelector('.scw-log')!;
      return log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    });
    // The visitor scrolls up to read (resolved once the scroll event went out, as it does for a real scroll).
    await page.$eval(
      '#service-chat .scw-log',
      (log) =>
        new Promise((resolve) => {
          log.addEventListener('scroll', resolve, { once: true });
          log.scrollTo({ top: 0 });
        }),
    );
    await busEmit(page, 'botMessage', { text: 'x '.repeat(3000) });
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg[data-role=bot]').length === 5);
    expect(await page.$eval('#service-chat .scw-log', (log) => log.scrollTop)).toBe(0);
    const announced = (await page.textContent(W.live)) ?? '';
    expect(announced.length).toBeGreaterThan(100);
    expect(announced.length).toBeLessThanOrEqual(241);

    expect(await page.$eval('#service-chat .scw-header', (el) => el.getBoundingClientRect().height)).toBeLessThan(70);
    const before = await page.$eval(W.input, (el) => el.getBoundingClientRect().height);
    await page.focus(W.input);
    await page.keyboard.type('one');
    for (const line of ['two', 'three', 'four']) {
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type(line);
    }
    const grown = await page.$eval(W.input, (el) => el.getBoundingClientRect().height);
    expect(grown).toBeGreaterThan(before + 30);
    expect(grown).toBeLessThanOrEqual(120);
    await screenshot(page, 'visitor-long-role-growing-input');
    await t.context.close();
  });

  it('bot messages carry the avatar beside them; hovering a message shows its time', async () => {
    const { page, context } = await widgetPage();
    await ask(page, 'hello there', 1);
    const bot = lastBot(page);
    expect(await bot.locator('.scw-avatar').count()).toBe(1);
    expect(await page.locator(`${W.userMsg} .scw-avatar`).count()).toBe(0);
    const time = await bot.getAttribute('data-time');
    expect(time).toMatch(/\d{1,2}[:.]\d{2}/);
    const shown = () => bot.evaluate((el) => getComputedStyle(el, '::after').content);
    expect(await shown()).toBe('none');
    await bot.hover();
    expect(await shown()).toBe(`"${time}"`);
    await screenshot(page, 'bot-avatar-and-time-on-hover');
    await context.close();
  });

  it('the mobile full-screen panel is modal; the desktop panel is not', async () => {
    const mobile = await widgetPage({ viewport: { width: 390, height: 844 } });
    await busEmit(mobile.page, 'open');
    expect(await mobile.page.getAttribute(W.panel, 'aria-modal')).toBe('true');
    await mobile.context.close();
    const desktop = await widgetPage();
    await busEmit(desktop.page, 'open');
    expect(await desktop.page.getAttribute(W.panel, 'aria-modal')).toBeNull();
    await desktop.context.close();
  });

  it('a plain-HTML span trigger is operable with the keyboard', async () => {
    const { page, context } = await widgetPage({ body: '<span class="help" data-chat-trigger data-chat-bot-message="Here to help">Help</span>' });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('help');
    expect(await page.getAttribute('.help', 'role')).toBe('button');
    await page.keyboard.press('Enter');
    await page.waitForSelector(W.panel);
    await page.waitForFunction(
      () => document.querySelector('#service-chat')!.shadowRoot!.querySelector('.scw-msg[data-role=bot][data-done=true]')?.textContent === 'Here to help',
    );
    await context.close();
  });
});

describe('a hostile host page', () => {
  it('cannot hide or move the widget with its CSS', async () => {
    const css = 'div{display:none!important} #service-chat{opacity:0!important;left:-999px!important} body{transform:translateX(-4000px) scale(.5)}';
    const { page, context } = await widgetPage({ head: `<link rel="stylesheet" href="/test/hostile.css">` });
    await page.route('**/test/hostile.css', (route) => route.fulfill({ contentType: 'text/css', body: css }));
    await page.reload();
    await page.waitForSelector(`${W.fab}[data-ready=true]`);
    expect(await page.evaluate(() => getComputedStyle(document.body).transform)).not.toBe('none');
    await page.$eval(W.fab, (fab) => Promise.all(fab.getAnimations().map((animation) => animation.finished)));
    const box = await page.locator(W.fab).boundingBox();
    expect(box).toMatchObject({ x: 1280 - 20 - 60, y: 800 - 20 - 60, width: 60, height: 60 });
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('#service-chat')!).display)).toBe('block');
    await page.click(W.fab);
    await page.waitForSelector(W.panel);
    await screenshot(page, 'hostile-host-css');
    await context.close();
  });

  it('adopts a queue stub the page defined first and replays its calls', async () => {
    const t = await h.open(null);
    await t.page.route('**/test/stub.js', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `window.__service_chat = window.__service_chat || { q: [], emit: function () { this.q.push(arguments); }, on: function () { this.q.push(['on'].concat([].slice.call(arguments))); } };
          window.__service_chat.emit('badge', { count: 3 });
          window.__service_chat.on('widgetOpened', function () { window.__opened = true; });
          window.__service_chat.emit('open');`,
      }),
    );
    const html = `<!doctype html><html><head><title>x</title><script src="/test/stub.js"></script></head><body>${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0' })}</body></html>`;
    await hostPage(t.page, `${h.platform.url}/test/stub.html`, html);
    await t.page.waitForSelector(W.panel);
    expect(await t.page.textContent(W.badge)).toBe('3');
    expect(await t.page.evaluate(() => (window as unknown as { __opened?: boolean }).__opened)).toBe(true);
    expect(t.errors).toEqual([]);
    await t.context.close();
  });

  it('labels with direction overrides or only invisible characters cannot disguise a link', async () => {
    const { page, context } = await widgetPage();
    await busEmit(page, 'botMessage', { text: 'Your [Link:\u202Efdp.exe|https://example.com/x] and [Page:\u200b\u200c\u2060|/pricing]', openFirst: true });
    await page.waitForSelector(W.botDone);
    expect(await page.locator('#service-chat [data-marker=Link]').textContent()).toBe('fdp.exe');
    expect(await page.locator('#service-chat [data-marker=Page]').count()).toBe(0);
    expect(await shadow(page, (root) => root.querySelectorAll('.scw-card').length)).toBe(0);
    await context.close();
  });
});

describe('lighter and faster', () => {
  it('the loader paints a FAB at once; a press before the widget code arrived opens the panel when it does', async () => {
    const t = await h.open(null);
    // Hold the widget code until the test lets it through, as a slow network would.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await t.page.route('**/embed/widget.js', async (route) => {
      await held;
      await route.continue();
    });
    const html = `<!doctype html><html lang="en"><head><title>x</title></head><body>${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0' })}</body></html>`;
    await hostPage(t.page, `${h.platform.url}/test/static-fab.html`, html);
    await t.page.waitForSelector(`${W.fab}.scw-static`);
    expect(await t.page.getAttribute(W.fab, 'aria-label')).toBe('Open chat');
    await t.page.click(W.fab);
    release();
    await t.page.waitForSelector(W.panel);
    expect(await t.page.locator(W.fab).count()).toBe(1);
    expect(await t.page.getAttribute(W.fab, 'aria-label')).toBe('Close chat');
    expect(t.errors).toEqual([]);
    await t.context.close();
  });

  it('a reply of 5,000 markers is cut at the message limit and rendered a step per frame, all cards in the end', async () => {
    const { page, context } = await widgetPage();
    const text = Array.from({ length: 5000 }, (_, i) => `[Page:P${i}|/p/${i}]`).join(' ');
    await busEmit(page, 'botMessage', { text, openFirst: true });
    const expected = Math.floor(4000 / '[Page:P0000|/p/0000] '.length);
    await page.waitForFunction(
      (count) => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('[data-marker=Page]').length >= count,
      expected,
    );
    await context.close();
  });
});
