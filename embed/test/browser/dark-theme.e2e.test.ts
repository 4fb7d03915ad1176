import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { embedTag, hostPage, startHarness, W, type Harness } from './harness';

// The site's dark theme as sites switch it: a `dark` class on <body> or <html>, toggled while the panel is open. The
// script tag's host is a child of <html>, so <body> is no ancestor of it.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const DARK_SLATE = 'rgb(15, 23, 42)';
const WHITE = 'rgb(255, 255, 255)';
const DARK_BLUE = 'rgb(30, 58, 138)';
const LIGHT_BLUE = 'rgb(239, 246, 255)';

/** What a visitor sees of the theme: the window, a bot bubble, a user bubble and the FAB. */
const colours = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('#service-chat')!.shadowRoot!;
    const style = (selector: string) => getComputedStyle(root.querySelector(selector)!);
    return {
      panel: style('.scw-panel').backgroundColor,
      bot: style('.scw-bot .scw-bubble').backgroundColor,
      user: style('.scw-user .scw-bubble').backgroundColor,
      fab: style('.scw-fab').backgroundImage,
    };
  });

const panelIs = (page: Page, colour: string) =>
  page.waitForFunction(
    (expected) => getComputedStyle(document.querySelector('#service-chat')!.shadowRoot!.querySelector('.scw-panel')!).backgroundColor === expected,
    colour,
  );

describe('dark theme', () => {
  it('follows a dark class on <body> and on <html>, live; the user bubble and the FAB keep their blue', async () => {
    const { page, context, errors } = await h.open(null);
    await hostPage(
      page,
      `${h.platform.url}/test/theme.html`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Theme</title></head><body>
      ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`,
    );
    await page.waitForSelector(`${W.fab}[data-ready=true]`);
    await page.click(W.fab);
    await page.fill(W.input, 'Hello');
    await page.keyboard.press('Enter');
    await page.waitForSelector(W.botDone);
    const light = await colours(page);
    expect(light).toEqual(expect.objectContaining({ panel: WHITE, bot: LIGHT_BLUE }));

    // A theme switch on <body> while the panel is open.
    await page.evaluate(() => document.body.classList.add('dark'));
    await panelIs(page, DARK_SLATE);
    expect(await colours(page)).toEqual({ ...light, panel: DARK_SLATE, bot: DARK_BLUE });
    await page.evaluate(() => document.body.classList.remove('dark'));
    await panelIs(page, WHITE);
    expect(await colours(page)).toEqual(light);

    // And on <html>, the host's own parent.
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await panelIs(page, DARK_SLATE);
    expect(await colours(page)).toEqual({ ...light, panel: DARK_SLATE, bot: DARK_BLUE });
    expect(errors).toEqual([]);
    await context.close();
  });
});
