import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { embedTag, hostPage, screenshot, startHarness, W, type Harness } from './harness';

// A visitor books an event through the skill the company granted to the public role, confirming it in the panel.

const BOOK = 'Book a demo tomorrow at 10';
const CONFIRM = '#service-chat .scw-confirm';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  expect((await h.api('skills/install/', { body: { agent_id: h.agentId, skill_code: 'calendar' } })).status).toBe(200);
});
afterAll(async () => {
  await h?.stop();
});

const events = async () => (await h.api<{ events: { title: string; starts_at: string }[] }>('calendar/event_list/')).body.data.events;

/** A fresh visitor (own browser context) with the panel open and the booking request sent. */
async function visitorAsks(): Promise<Page> {
  const { page } = await h.open(null);
  await hostPage(
    page,
    `${h.platform.url}/test/book.html`,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Book</title></head><body>
    ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`,
  );
  await page.click(W.fab);
  await page.fill(W.input, BOOK);
  await page.keyboard.press('Enter');
  // The reply is complete (any card to confirm is added with it).
  await page.waitForSelector(W.botDone);
  return page;
}

const botTexts = (page: Page) => page.locator(W.botDone).allTextContents();

describe('visitor skills in the widget', () => {
  it('offers no tool without a grant to the public role', async () => {
    const before = await events();
    const page = await visitorAsks();
    expect(await page.locator(CONFIRM).count()).toBe(0);
    expect(await events()).toEqual(before);
    await page.context().close();
  });

  it('books the event only when the visitor confirms in the panel; a decline performs nothing', async () => {
    expect((await h.api('grants/create/', { body: { role: 'public', capability: 'calendar.create_event' } })).status).toBe(201);
    const before = await events();

    const declining = await visitorAsks();
    await declining.click(`${CONFIRM} .scw-card`);
    await declining.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.textContent!.includes('did not do it'));
    expect(await declining.locator(CONFIRM).count()).toBe(0);
    expect(await events()).toEqual(before);
    await declining.context().close();

    const page = await visitorAsks();
    const card = page.locator(CONFIRM);
    await card.waitFor();
    expect(await card.getAttribute('aria-label')).toMatch(/calendar event/i);
    await screenshot(page, 'confirm-card');
    await page.click(`${CONFIRM} .scw-action`);
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.textContent!.includes('booked for'));
    expect(await page.locator(CONFIRM).count()).toBe(0);
    const after = await events();
    expect(after).toHaveLength(before.length + 1);
    expect(after).toContainEqual(expect.objectContaining({ title: BOOK, starts_at: expect.stringMatching(/T10:00/) }));
    expect((await botTexts(page)).join('\n')).toMatch(/booked for/);
    await page.context().close();
  });
});
