import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/browser/chromium';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { startTestPlatform } from '../support/platform';

// The local demo as a visitor sees it (issue 28): on the page `npm start` serves, the widget answers a question about
// a plan the company does not have from the page's own pricing section, in Chromium, and cites that section.

const WIDGET = { fab: '#service-chat .scw-fab', input: '#service-chat textarea', botDone: '#service-chat .scw-msg[data-role=bot][data-done=true]' };

let platform: RunningPlatform;
let browser: Browser;
beforeAll(async () => {
  [platform, browser] = await Promise.all([startTestPlatform({ demoKnowledge: true }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

describe('the demo widget answers from the demo page', () => {
  it('says there is no Pro plan, that Starter is €19 and Partner €99 a month, and shows the pricing section as its source', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${platform.url}/`);
    await page.click(WIDGET.fab);
    await page.fill(WIDGET.input, 'How much does the Pro plan cost?');
    await page.keyboard.press('Enter');
    const reply = page.locator(WIDGET.botDone).last();
    await reply.waitFor();
    const text = await reply.textContent();
    expect(text).toContain('There is no “Pro plan”');
    expect(text).toContain('The Starter plan costs €19 a month and the Partner plan costs €99 a month.');
    // The source is the page (its title on the card), and the card leads to its pricing section.
    const card = reply.locator('.scw-card-page').first();
    expect(await card.textContent()).toBe('Demo Company: chat widget demo');
    await page.evaluate(() => {
      const w = window as unknown as { __navigated: string[] };
      w.__navigated = [];
      window.__service_chat!.on('navigate', (payload) => w.__navigated.push((payload as { href: string }).href));
    });
    await card.click();
    expect(await (await page.waitForFunction(() => (window as unknown as { __navigated: string[] }).__navigated[0])).jsonValue()).toBe('/#pricing-title');
    await page.context().close();
  });
});
