import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, embedTag, events, hostPage, recordEvents, screenshot, startHarness, W, type Harness } from './harness';

// The widget in headless chromium against the real local platform (startPlatform: handlers, dynalite, offline model).

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const BODY = `<main><h1>Host page</h1><p id="far" style="margin-top:1500px">Far away</p>
  <button id="target" data-chat-target="cta">Call to action</button><div style="height:1500px"></div></main>`;

/** A host page on the platform's origin with the one-line embed; widget timings shortened for the test. */
async function widgetPage(attributes: Record<string, string> = {}, extra = '', headers: Record<string, string> = {}) {
  const t = await h.open(null);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body>${BODY}${extra}
    ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0', ...attributes })}</body></html>`;
  await hostPage(t.page, `${h.platform.url}/test/host.html`, html, headers);
  return t;
}

async function ready(page: Page) {
  await page.waitForSelector(`${W.fab}[data-ready=true]`);
  await recordEvents(page);
}

const busEmit = (page: Page, name: string, payload?: unknown) =>
  page.evaluate(([n, p]) => window.__service_chat!.emit(n as never, p as never), [name, payload] as const);

describe('demo page (one-line embed, strict CSP meta)', () => {
  it('shows the FAB after showDelay with a pulse while loading, opens with Enter, closes with Escape, passes axe', async () => {
    const { page, errors, context } = await h.open('/');
    await page.waitForSelector(W.fab, { timeout: 5000 });
    await page.waitForSelector(`${W.fab}[data-ready=true]`);
    await recordEvents(page);
    await page.waitForTimeout(400);
    await screenshot(page, 'closed');
    expect(await page.getAttribute(W.fab, 'aria-label')).toBe('Open chat with Ada');
    expect(await axeViolations(page)).toEqual([]);

    await page.focus(W.fab);
    await page.keyboard.press('Enter');
    await page.waitForSelector(W.panel);
    expect(await page.evaluate(() => document.querySelector('#service-chat')!.shadowRoot!.activeElement?.tagName)).toBe('TEXTAREA');
    await page.waitForTimeout(300);
    await screenshot(page, 'open-light');
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('Escape');
    await page.waitForSelector(W.panel, { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.activeElement?.classList.contains('scw-fab'));
    expect((await events(page)).map(([name]) => name)).toEqual(['widgetOpened', 'widgetClosed']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('streams a reply from the offline model: typing indicator, markers, navigate, pointer, polite announcement', async () => {
    const { page, context, errors } = await h.open('/');
    await ready(page);
    await page.click(W.fab);
    // Hold the reply to see (and check) the streaming state, then let it through.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requestBody: Record<string, unknown> = {};
    await page.route('**/v1/agents/*/chat', async (route) => {
      requestBody = JSON.parse(route.request().postData() ?? '{}');
      await held;
      await route.continue();
    });
    await page.fill(W.input, 'Please show me the pricing and take me there');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#service-chat .scw-typing');
    // While the reply streams, Stop stands where Send was (it ends the reply; see stop-reply.e2e.test.ts).
    expect(await page.getAttribute('#service-chat .scw-send', 'aria-label')).toBe('Stop');
    expect(await axeViolations(page)).toEqual([]);
    release();
    await page.waitForSelector(W.botDone);
    const bubble = await page.textContent(`${W.botDone} .scw-bubble`);
    expect(bubble).toContain('Offline demo model');
    expect(await page.locator('#service-chat .scw-card-page').textContent()).toBe('Pricing');
    expect(await page.locator('#service-chat .scw-action').textContent()).toBe('Show me');
    await page.waitForSelector('#service-chat .scw-pointer[data-phase]');
    const log = await events(page);
    const names = log.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['userMessage', 'botResponse', 'navigate', 'uiAction']));
    expect(names.indexOf('botResponse')).toBeLessThan(names.indexOf('navigate'));
    expect(log.find(([name]) => name === 'navigate')?.[1]).toEqual({ href: '/pricing' });
    expect(log.find(([name]) => name === 'uiAction')?.[1]).toEqual({ action: 'pointer', target: '#pricing' });
    const response = log.find(([name]) => name === 'botResponse')?.[1] as { raw: string; markers: { type: string }[] };
    expect(response.markers.map((marker) => marker.type)).toEqual(['Page', 'Action']);
    expect(await page.textContent(W.live)).toContain('Pricing');
    expect(await page.textContent(W.live)).not.toContain('[Page:');
    expect(requestBody).toMatchObject({ locale: 'en', messages: [{ role: 'user', content: 'Please show me the pricing and take me there' }] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers thumbs at the end of an answer: rated by keyboard, changed, commented; stored once for the answer', async () => {
    const ratedFrom = new Date().toISOString().slice(0, 10);
    const { page, context, errors } = await h.open('/');
    await ready(page);
    await page.click(W.fab);
    await page.fill(W.input, 'How much is the Partner plan?');
    await page.keyboard.press('Enter');
    const thumbs = `${W.botDone} [data-role=rating]`;
    await page.waitForSelector(thumbs);
    expect(await page.getAttribute(thumbs, 'aria-label')).toBe('Was this answer helpful?');
    const up = `${thumbs} button[data-rating=up]`;
    const down = `${thumbs} button[data-rating=down]`;
    expect([await page.getAttribute(up, 'aria-label'), await page.getAttribute(down, 'aria-label')]).toEqual(['Helpful', 'Not helpful']);
    await page.focus(up);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${up}[aria-pressed=true]`);
    // The visitor changes their mind and says why.
    await page.focus(down);
    await page.keyboard.press('Space');
    await page.waitForSelector(`${down}[aria-pressed=true]`);
    expect(await page.getAttribute(up, 'aria-pressed')).toBe('false');
    await page.fill(`${thumbs} textarea`, 'It did not say if VAT is included.');
    await page.click(`${thumbs} form button`);
    await page.waitForFunction(
      () =>
        document.querySelector('#service-chat')!.shadowRoot!.querySelector('[data-role=rating] [role=status]')?.textContent === 'Thank you for your feedback',
    );
    expect(await axeViolations(page)).toEqual([]);
    // From the day the rating started to today (UTC): the rating is found even when it crossed midnight.
    const insights = await h.api<{ total: Record<string, number>; comments: { rating: string; comment: string }[] }>('insights/agent/', {
      query: { agent_id: h.agentId, from: ratedFrom, to: new Date().toISOString().slice(0, 10) },
    });
    expect(insights.body.data.total).toMatchObject({ ratings_up: 0, ratings_down: 1 });
    expect(insights.body.data.comments).toEqual([expect.objectContaining({ rating: 'down', comment: 'It did not say if VAT is included.' })]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('runs the declarative triggers: hidden system prompt, open, then the bot message after the delay', async () => {
    const { page, context } = await h.open('/');
    await ready(page);
    const requests: Record<string, unknown>[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/chat')) requests.push(JSON.parse(request.postData() ?? '{}'));
    });
    const started = Date.now();
    await page.click('button.trigger-button'); // highlightFab, delay 400
    await page.waitForSelector(`${W.fab}.scw-highlight`);
    await page.waitForSelector(W.panel);
    await page.waitForSelector(W.botDone);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700 + 400);
    expect(await page.textContent(`${W.botDone} .scw-bubble`)).toContain('Happy to walk you through our plans');

    await page.click('#service-chat [aria-label="Close chat"]');
    await page.click('a.trigger-link'); // userMessage
    await page.waitForSelector(W.userMsg);
    await page.waitForFunction(
      () => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg[data-role=bot][data-done=true]').length >= 2,
    );
    expect(await page.textContent(W.userMsg)).toBe('Which skills can agents use?');
    expect(requests.at(-1)).toMatchObject({ context: { system: ['The visitor asked for a pricing walkthrough.'] } });

    await page.click('#service-chat [aria-label="Close chat"]');
    await page.click('button.trigger-icon');
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('[data-marker=Agent]').length === 1);
    await page.click('#service-chat [aria-label="Close chat"]');
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.activeElement?.classList.contains('scw-fab'));
    await page.focus('.trigger-custom');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      [...document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('[data-marker=Page]')].some((card) => card.textContent === 'Documentation'),
    );
    const names = (await events(page)).map(([name]) => name);
    expect(names.filter((name) => name === 'widgetOpened')).toHaveLength(4);
    await context.close();
  });

  it('follows a dark class on an ancestor, live (screenshot, axe)', async () => {
    const { page, context } = await h.open('/');
    await ready(page);
    await busEmit(page, 'botMessage', { text: 'Dark **mode** check [Skill:Booking|calendar_booking] [Link:Docs|https://example.com]', openFirst: true });
    // The demo's theme toggle sits under the open panel; flip the class as any site theme switch would.
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await page.waitForSelector('#service-chat .scw-root.dark', { state: 'attached' });
    expect(await page.$eval(W.panel, (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(15, 23, 42)');
    expect(await page.$eval(`${W.botDone} .scw-bubble`, (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(30, 58, 138)');
    await page.waitForTimeout(300);
    await screenshot(page, 'open-dark');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => document.documentElement.classList.remove('dark'));
    await page.waitForSelector('#service-chat .scw-root:not(.dark)', { state: 'attached' });
    expect(await page.$eval(W.panel, (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
    await context.close();
  });
});

describe('bus: inbound commands and outbound events', () => {
  it('queues commands sent before the widget is ready and replays them', async () => {
    const { page, context } = await h.open(null);
    const html = `<!doctype html><html><head><title>Early</title></head><body>
      <script src="/embed/loader.js" data-agent-id="${h.agentId}" data-show-delay="0"></script>
      <script src="/test/early.js"></script></body></html>`;
    await page.route(`${h.platform.url}/test/early.js`, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `window.__service_chat.emit('badge', { count: 5 }); window.__service_chat.emit('open'); window.__early = window.__service_chat.listenerCount;`,
      }),
    );
    await hostPage(page, `${h.platform.url}/test/early.html`, html);
    await page.waitForSelector(W.panel);
    expect(await page.textContent(W.badge)).toBe('5');
    expect(await page.evaluate(() => (window as unknown as { __early: number }).__early)).toBe(0);
    expect(await page.evaluate(() => window.__service_chat!.listenerCount)).toBeGreaterThan(10);
    await context.close();
  });

  it('handles every inbound command', async () => {
    const { page, context, warnings } = await widgetPage();
    await ready(page);
    const seen: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/chat')) seen.push(request.postData() ?? '');
    });

    await busEmit(page, 'open');
    await page.waitForSelector(W.panel);
    await busEmit(page, 'close');
    await page.waitForSelector(W.panel, { state: 'detached' });
    await busEmit(page, 'toggle');
    await page.waitForSelector(W.panel);
    await busEmit(page, 'toggle');
    await page.waitForSelector(W.panel, { state: 'detached' });

    await busEmit(page, 'system', { prompt: 'The visitor is a returning customer.' });
    await busEmit(page, 'setContext', { page: 'pricing', topic: 'plans' });
    await busEmit(page, 'send', { text: 'What does it cost?', openFirst: true });
    await page.waitForSelector(W.panel);
    await page.waitForSelector(W.botDone);
    const body = JSON.parse(seen[0] ?? '{}');
    expect(body.context).toEqual({ system: ['The visitor is a returning customer.'], data: { page: 'pricing', topic: 'plans' } });
    expect(await page.locator(W.userMsg).allTextContents()).toEqual(['What does it cost?']);
    // Hidden context is never shown.
    expect(await page.locator('#service-chat .scw-log').textContent()).not.toContain('returning customer');

    await busEmit(page, 'botMessage', { text: 'A scripted **hello**' });
    await page.waitForSelector('#service-chat strong:text("hello")');
    await busEmit(page, 'clear');
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg[data-role=user]').length === 0);

    await busEmit(page, 'setLocale', { locale: 'tr' });
    expect(await page.getAttribute(W.input, 'placeholder')).toBe('Mesajınızı yazın…');
    await busEmit(page, 'setLocale', { locale: 'de' });
    expect(warnings.some((text) => text.includes('setLocale'))).toBe(true);
    await busEmit(page, 'setLocale', { locale: 'en' });
    await busEmit(page, 'close');

    await busEmit(page, 'highlight', { duration: 500 });
    await page.waitForSelector(`${W.fab}.scw-highlight`);
    await page.waitForSelector(`${W.fab}:not(.scw-highlight)`);
    await busEmit(page, 'badge', { count: 7 });
    expect(await page.textContent(W.badge)).toBe('7');
    expect(await page.getAttribute(W.fab, 'aria-label')).toBe('Open chat with Ada, 7 unread');
    await busEmit(page, 'badge', { count: null });
    await page.waitForSelector(W.badge, { state: 'detached' });
    await busEmit(page, 'nudge', { text: 'Psst, need a hand?', duration: 400 });
    expect(await page.textContent(W.nudge)).toBe('Psst, need a hand?');
    await page.waitForSelector(W.nudge, { state: 'detached' });

    await busEmit(page, 'uiAction', { action: 'scroll', target: '#far' });
    await page.waitForFunction(() => {
      const rect = document.getElementById('far')!.getBoundingClientRect();
      return Math.abs(rect.top + rect.height / 2 - innerHeight / 2) < 40;
    });
    await busEmit(page, 'uiAction', { action: 'highlight', target: 'cta' });
    await page.waitForSelector('#service-chat .scw-ring[data-state=on]');
    const started = Date.now();
    await page.waitForSelector('#service-chat .scw-ring', { state: 'detached', timeout: 5000 });
    expect(Date.now() - started).toBeGreaterThan(2000);

    // Malformed payloads are refused with a warning, never a crash.
    await busEmit(page, 'send', { text: 42 });
    await busEmit(page, 'badge', { count: 'many' });
    await busEmit(page, 'uiAction', { action: 'pointer', target: '#does-not-exist' });
    expect(warnings.filter((text) => text.includes('ignored') || text.includes('not found')).length).toBeGreaterThanOrEqual(3);
    expect(await page.isVisible(W.fab)).toBe(true);
    await context.close();
  });

  it('runs the pointer through its five phases with the spec durations, shorter with reduced motion', async () => {
    const phases = async (page: Page) => {
      await page.evaluate(() => {
        const root = document.querySelector('#service-chat')!.shadowRoot!;
        const w = window as unknown as { __phases: [string, number][] };
        w.__phases = [];
        new MutationObserver((records) => {
          for (const record of records) {
            const phase = (record.target as HTMLElement).dataset?.phase;
            if (phase && w.__phases.at(-1)?.[0] !== phase) w.__phases.push([phase, performance.now()]);
          }
        }).observe(root, { subtree: true, attributes: true, attributeFilter: ['data-phase'], childList: true });
      });
      await busEmit(page, 'uiAction', { action: 'pointer', target: '#target' });
      await page.waitForSelector('#service-chat .scw-pointer');
      await page.waitForSelector('#service-chat .scw-pointer', { state: 'detached', timeout: 6000 });
      return page.evaluate(() => (window as unknown as { __phases: [string, number][] }).__phases);
    };
    const normal = await widgetPage();
    await ready(normal.page);
    const seen = await phases(normal.page);
    expect(seen.map(([phase]) => phase)).toEqual(['appear', 'move', 'click', 'ripple', 'fade']);
    const durations = seen.slice(1).map(([, at], index) => at - seen[index]![1]);
    const expected = [500, 600, 300, 500];
    durations.forEach((duration, index) => expect(Math.abs(duration - expected[index]!)).toBeLessThan(200));
    await normal.context.close();

    const reduced = await widgetPage();
    await reduced.page.emulateMedia({ reducedMotion: 'reduce' });
    await ready(reduced.page);
    const quick = await phases(reduced.page);
    expect(quick.at(-1)![1] - quick[0]![1]).toBeLessThan(1000);
    await reduced.context.close();
  });

  it('renders the five markers with keyword icons; clicks emit the spec events; nothing injects markup', async () => {
    const { page, context, errors } = await widgetPage();
    await ready(page);
    const text =
      'Try [Skill:Booking|calendar_booking] [Skill:Mail|email_sender] [Skill:Shop|order_sync] [Skill:Calls|phone_line] ' +
      '[Skill:Stats|analytics_daily] [Skill:Site|web_scraper] [Skill:Flow|automation_x] [Skill:Other|misc] ' +
      '[Agent:Sales|sales] [Page:Pricing|/pricing] [Link:Example|https://example.com] [Action:Point|pointer|cta] ' +
      '<img src=x onerror="window.__pwned=1"> [Link:Bad|javascript:alert(1)] <script>window.__pwned=2</script>';
    await busEmit(page, 'botMessage', { text, openFirst: true });
    await page.waitForSelector('#service-chat [data-marker=Skill]');
    const icons = await page.$$eval('#service-chat [data-marker=Skill]', (nodes) => nodes.map((node) => (node as HTMLElement).dataset.icon));
    expect(icons).toEqual(['calendar', 'mail', 'cart', 'phone', 'chart', 'globe', 'zap', 'puzzle']);
    expect(await page.$$eval('#service-chat img:not(.scw-avatar img)', (nodes) => nodes.length)).toBe(0);
    expect(await page.$$eval('#service-chat script', (nodes) => nodes.length)).toBe(0);
    expect(await page.textContent(`${W.botDone} .scw-bubble`)).toContain('<img src=x onerror=');
    expect(await page.textContent(`${W.botDone} .scw-bubble`)).toContain('[Link:Bad|javascript:alert(1)]');
    const link = page.locator('#service-chat [data-marker=Link]');
    expect(await link.count()).toBe(1);
    expect(await link.getAttribute('href')).toBe('https://example.com/');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');

    await page.evaluate(() => window.__service_chat!.on('navigate', () => undefined)); // a host that routes itself
    await page.click('#service-chat [data-marker=Skill][data-icon=calendar]');
    await page.click('#service-chat [data-marker=Agent]');
    await page.click('#service-chat [data-marker=Page]');
    await page.click('#service-chat [data-marker=Action]');
    const log = await events(page);
    expect(log.filter(([name]) => name === 'navigate').map(([, payload]) => payload)).toEqual([
      { href: '/skills/calendar_booking' },
      { href: '/agents/sales' },
      { href: '/pricing' },
    ]);
    expect(log.find(([name]) => name === 'uiAction')?.[1]).toEqual({ action: 'pointer', target: 'cta' });
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('navigates itself when no host listener handles navigate: locale prefix inside, new tab outside', async () => {
    const { page, context } = await widgetPage();
    await page.waitForSelector(`${W.fab}[data-ready=true]`); // no recordEvents: this host has no navigate listener
    await busEmit(page, 'botMessage', { text: 'See [Page:Pricing|/pricing] [Link:Example|https://example.com]', openFirst: true });
    await context.route('https://example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Example</title>' }));
    const popup = context.waitForEvent('page');
    await page.click('#service-chat [data-marker=Link]');
    expect((await popup).url()).toBe('https://example.com/');
    await Promise.all([page.waitForURL(`${h.platform.url}/en/pricing`), page.click('#service-chat [data-marker=Page]')]);
    await context.close();
  });
});

describe('configuration, isolation and robustness', () => {
  it('loads widget-config once per session (sessionStorage) and keeps the conversation across page loads', async () => {
    const { page, context } = await widgetPage();
    await ready(page);
    const configRequests: string[] = [];
    context.on('request', (request) => {
      if (request.url().includes('/widget-config')) configRequests.push(request.url());
    });
    await busEmit(page, 'send', { text: 'Tell me about skills', openFirst: true });
    await page.waitForSelector(W.botDone);
    await page.reload();
    await page.waitForSelector(W.botDone);
    expect(await page.locator(W.userMsg).allTextContents()).toEqual(['Tell me about skills']);
    expect(await page.isVisible(W.panel)).toBe(true);
    expect(configRequests).toHaveLength(0); // the reload used the session's cached configuration
    await context.close();
  });

  it('survives SPA route changes and a body re-render without re-mounting', async () => {
    const { page, context } = await widgetPage();
    await ready(page);
    await busEmit(page, 'botMessage', { text: 'Still here', openFirst: true });
    await page.evaluate(() => {
      (document.querySelector('#service-chat') as HTMLElement & { __mark?: number }).__mark = 1;
      history.pushState({}, '', '/test/other-route');
      document.querySelector('#service-chat')!.remove();
    });
    await page.waitForFunction(() => (document.querySelector('#service-chat') as (HTMLElement & { __mark?: number }) | null)?.__mark === 1);
    expect(await page.textContent(`${W.botDone} .scw-bubble`)).toBe('Still here');
    expect(await page.evaluate(() => document.querySelectorAll('#service-chat').length)).toBe(1);
    await context.close();
  });

  it('works under a strict CSP header without unsafe-inline or unsafe-eval', async () => {
    const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'";
    const { page, context, errors } = await widgetPage({}, '', { 'content-security-policy': csp });
    await page.evaluate(() => {
      (window as unknown as { __violations: string[] }).__violations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { __violations: string[] }).__violations.push(event.violatedDirective),
      );
    });
    await ready(page);
    await page.click(W.fab);
    await page.waitForSelector(W.panel);
    expect(await page.$eval(W.fab, (el) => getComputedStyle(el).width)).toBe('60px');
    expect(await page.$eval(W.fab, (el) => getComputedStyle(el).zIndex)).toBe('auto');
    expect(await page.$eval('#service-chat', (el) => getComputedStyle(el).zIndex)).toBe('2147483647');
    await busEmit(page, 'send', { text: 'pricing' });
    await page.waitForSelector(W.botDone);
    // The inline style attribute of the test page body is the only thing the CSP may refuse.
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations.filter((d) => !d.startsWith('style-src-attr')))).toEqual(
      [],
    );
    expect(errors.filter((e) => !e.includes('style-src'))).toEqual([]);
    await context.close();
  });

  it('an agent id that is not a UUID: console warning, no request, generic defaults, still usable', async () => {
    const { page, context, warnings } = await h.open(null);
    const configRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/widget-config')) configRequests.push(request.url());
    });
    await hostPage(
      page,
      `${h.platform.url}/test/bad-id.html`,
      `<!doctype html><html><head><title>x</title></head><body>${embedTag({ 'data-agent-id': 'not-a-uuid', 'data-show-delay': '0' })}</body></html>`,
    );
    await page.waitForSelector(`${W.fab}[data-ready=true]`);
    expect(warnings.some((text) => text.includes('not a UUID'))).toBe(true);
    expect(configRequests).toEqual([]);
    expect(await page.getAttribute(W.fab, 'aria-label')).toBe('Open chat with Assistant');
    await page.click(W.fab);
    await page.waitForSelector(W.input);
    await context.close();
  });

  it('an unreachable API: 3 retries with backoff, then generic defaults; the widget stays usable', async () => {
    const { page, context, warnings } = await h.open(null);
    const attempts: number[] = [];
    await page.route('http://127.0.0.1:9/**', (route) => {
      attempts.push(Date.now());
      return route.abort('connectionrefused');
    });
    await hostPage(
      page,
      `${h.platform.url}/test/no-api.html`,
      `<!doctype html><html><head><title>x</title></head><body>${embedTag({ 'data-agent-id': h.agentId, 'data-api-url': 'http://127.0.0.1:9', 'data-show-delay': '0' })}</body></html>`,
    );
    await page.waitForSelector(`${W.fab}.scw-loading`);
    await page.waitForSelector(`${W.fab}[data-ready=true]`, { timeout: 10_000 });
    expect(attempts).toHaveLength(4);
    // Exponential backoff: 400, 800, 1600 ms between the attempts.
    const gaps = attempts.slice(1).map((at, index) => at - attempts[index]!);
    [400, 800, 1600].forEach((expected, index) => expect(gaps[index]!).toBeGreaterThanOrEqual(expected * 0.9));
    expect(warnings.some((text) => text.includes('generic defaults'))).toBe(true);
    await page.click(W.fab);
    await page.fill(W.input, 'hello');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#service-chat .scw-error');
    expect(await page.textContent('#service-chat .scw-error')).toContain('could not reach');
    await context.close();
  });

  it('mobile: full-screen panel that follows the visual viewport (on-screen keyboard)', async () => {
    const { page, context } = await h.open('/', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await ready(page);
    await page.tap(W.fab);
    await page.waitForSelector(W.panel);
    // Let the slide-in animation finish before measuring.
    await page.$eval(W.panel, (panel) => Promise.all(panel.getAnimations().map((animation) => animation.finished)));
    const box = await page.locator(W.panel).boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    await page.waitForTimeout(300);
    await screenshot(page, 'mobile');
    // The keyboard shrinks the visual viewport; the panel shrinks with it so the input stays visible.
    await page.setViewportSize({ width: 390, height: 500 });
    await page.waitForFunction(() => {
      const input = document.querySelector('#service-chat')!.shadowRoot!.querySelector('textarea')!.getBoundingClientRect();
      return input.bottom <= 500;
    });
    expect(await page.isHidden(W.fab)).toBe(true);
    await context.close();
  });
});
