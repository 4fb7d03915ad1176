import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { until } from '../../../lambdas/test/support/runs';
import { launchChromium } from '../../../test/browser/chromium';
import { embedTag, hostPage, startHarness, turnstile, W, type Harness } from './harness';

// The avatar's face follows the conversation: thinking from the visitor's send to the reply's first text, talking
// while the reply streams, idle otherwise, through the SVG's own fragment views (no script of the avatar runs).

const gate = turnstile();
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
// A hosted model's stand-in (the one edge the test cannot reach): it thinks until released, writes a first part,
// waits again, then finishes.
const model = new MockLanguageModelV4({
  doStream: async () => {
    await gate.pass();
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hello, ' });
          await gate.pass();
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'I am here.' });
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({ type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } });
          controller.close();
        },
      }),
    };
  },
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ model });
});
afterAll(async () => {
  // Nothing may stay parked on the gate.
  for (let n = 0; n < 4; n++) gate.release();
  await h?.stop();
});

const HEADER_AVATAR = '#service-chat .scw-header .scw-avatar img';

async function widgetPage() {
  const t = await h.open(null);
  await hostPage(
    t.page,
    `${h.platform.url}/test/avatar.html`,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Avatar</title></head><body>
    ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`,
  );
  await t.page.waitForSelector(`${W.fab}[data-ready=true]`);
  await t.page.click(W.fab);
  return t;
}

const avatarIs = (page: Page, selector: string, src: string) =>
  page.waitForFunction(
    ([s, expected]) => document.querySelector('#service-chat')!.shadowRoot!.querySelector(s.replace('#service-chat ', ''))?.getAttribute('src') === expected,
    [selector, src] as const,
  );

/** A picture of each face as an <img> shows it (a page of its own, motion off so each picture holds still). */
async function faces(page: Page, url: string, fragments: string[]): Promise<Buffer[]> {
  await hostPage(
    page,
    `${h.platform.url}/test/faces.html`,
    `<!doctype html><html><body style="margin:0">
    ${fragments.map((fragment) => `<img src="${url}${fragment}" width="128" height="128">`).join('')}</body></html>`,
  );
  await page.waitForFunction(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0));
  return Promise.all(fragments.map((_, index) => page.locator('img').nth(index).screenshot()));
}

describe('avatar expressions', () => {
  it('the default avatar has three views, each animated, and holds still when the visitor asks for reduced motion', async () => {
    // The SVG's own media query, seen in the avatar opened as a document: its animations, none under reduced motion.
    const moving = await h.open('/embed/avatar.svg', { reducedMotion: 'no-preference' });
    expect(await moving.page.evaluate(() => document.getAnimations().length)).toBeGreaterThan(0);
    expect(await moving.page.evaluate(() => document.querySelectorAll('script').length)).toBe(0);
    const still = await h.open('/embed/avatar.svg', { reducedMotion: 'reduce' });
    expect(await still.page.evaluate(() => document.getAnimations().length)).toBe(0);
    await Promise.all([moving.context.close(), still.context.close()]);

    // As <img> pictures, in a browser set to reduced motion (a context's emulation does not reach image documents):
    // each view a face of its own, each holding still.
    const calm = await launchChromium(undefined, ['--force-prefers-reduced-motion']);
    try {
      const page = await calm.newPage();
      const shots = await faces(page, '/embed/avatar.svg', ['#idle', '#thinking', '#talking']);
      const [idle, thinking, talking] = shots;
      expect(thinking!.equals(idle!)).toBe(false);
      expect(talking!.equals(idle!)).toBe(false);
      expect(talking!.equals(thinking!)).toBe(false);
      // Proving stillness takes a while: a moving face (the talking mouth cycles in 0.6 s) changes within 300 ms.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
      const later = await Promise.all(shots.map((_, index) => page.locator('img').nth(index).screenshot()));
      expect(later.map((shot, index) => shot.equals(shots[index]!))).toEqual([true, true, true]);
    } finally {
      await calm.close();
    }
  });

  it('thinking from the send to the first text, talking while the reply streams, idle after', async () => {
    const { page, context, errors } = await widgetPage();
    const avatar = `${h.platform.url}/embed/avatar.svg`;
    await avatarIs(page, HEADER_AVATAR, `${avatar}#idle`);

    await page.fill(W.input, 'Are you there?');
    await page.keyboard.press('Enter');
    await avatarIs(page, HEADER_AVATAR, `${avatar}#thinking`);
    await page.waitForSelector('#service-chat .scw-typing');

    gate.release();
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.textContent!.includes('Hello,'));
    await avatarIs(page, HEADER_AVATAR, `${avatar}#talking`);
    // The avatar beside the reply being written talks too.
    await avatarIs(page, '#service-chat .scw-msg[data-done=false] .scw-avatar img', `${avatar}#talking`);

    gate.release();
    await page.waitForSelector(W.botDone);
    await avatarIs(page, HEADER_AVATAR, `${avatar}#idle`);
    expect(await page.$eval(`${W.botDone} .scw-avatar img`, (img) => img.getAttribute('src'))).toBe(`${avatar}#idle`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an avatar of the customer’s own declares no expressions and stays as it is', async () => {
    const custom = '/test/own-face.svg';
    expect((await h.api('agents/update/', { body: { agent_id: h.agentId, avatar_url: custom } })).status).toBe(200);
    await until(
      async () =>
        (await fetch(`${h.platform.url}/v1/agents/${h.agentId}/widget-config`)).json() as Promise<{
          agent: { avatarUrl: string; avatarExpressions: string[] };
        }>,
      (config) => config.agent.avatarUrl.endsWith(custom),
    ).then((config) => expect(config.agent.avatarExpressions).toEqual([]));
    const { page, context } = await widgetPage();
    const own = `${h.platform.url}${custom}`;
    await avatarIs(page, HEADER_AVATAR, own);
    await page.fill(W.input, 'Still there?');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#service-chat .scw-typing');
    expect(await page.$eval(HEADER_AVATAR, (img) => img.getAttribute('src'))).toBe(own);
    gate.release();
    gate.release();
    await page.waitForSelector(W.botDone);
    expect(await page.$eval(HEADER_AVATAR, (img) => img.getAttribute('src'))).toBe(own);
    await context.close();
  });
});
