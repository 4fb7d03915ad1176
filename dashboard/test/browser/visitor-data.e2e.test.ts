import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracesOf } from '../../../lambdas/test/support/traces';
import { axeViolations, downloaded, heading, screenshot, signedInPage, startDashboard, type DashboardHarness } from './support';

// A visitor's data from the inbox (issue 29, item 6): a teammate opens a conversation, downloads everything stored about
// its visitor as JSON, erases it after a confirmation, and sees the erasure in the audit list; the retention setting is
// saved beside it. Its own platform and browser; every table is scanned after the erasure.

let h: DashboardHarness;
let page: Page;
beforeAll(async () => {
  h = await startDashboard();
  page = (await signedInPage(h)).page;
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

/** A visitor's conversation through the widget's chat endpoint (the seeded agent allows the other origin). */
async function visitorSays(text: string) {
  const conversationId = crypto.randomUUID();
  const visitorId = crypto.randomUUID();
  const chat = await fetch(`${h.origin}/v1/agents/${h.agentId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: h.otherOrigin },
    body: JSON.stringify({ conversationId, visitorId, locale: 'en', messages: [{ role: 'user', content: text }] }),
  });
  expect(chat.status).toBe(200);
  await chat.text();
  return { conversationId, visitorId };
}

describe("a visitor's data in the inbox", () => {
  it('exports the visitor as JSON, erases them after a confirmation, lists the erasure, and saves the retention', async () => {
    const marker = `marker${crypto.randomUUID().replaceAll('-', '')}`;
    const visitor = await visitorSays(`My order is ${marker}`);
    await page.evaluate((target) => (location.hash = target), `#/agents/${h.agentId}/conversations`);
    await heading(page, /^Conversations$/);
    await page.getByRole('tab', { name: /^All / }).click();
    await page.locator('.conversations > li').first().getByRole('button').click();
    await page.getByRole('list', { name: 'Transcript' }).locator('.message.user').getByText(`My order is ${marker}`).waitFor();

    const exported = JSON.parse((await downloaded(page, () => page.getByRole('button', { name: "Export visitor's data" }).click())).text) as {
      conversations: { conversation: { id: string }; messages: { text: string }[] }[];
    };
    expect(exported.conversations.map(({ conversation }) => conversation.id)).toEqual([visitor.conversationId]);
    expect(exported.conversations[0]!.messages.map((message) => message.text)).toContain(`My order is ${marker}`);

    await page.getByRole('button', { name: "Erase visitor's data" }).click();
    const dialog = page.getByRole('dialog', { name: "Erase this visitor's data?" });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Erase everything' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Erased 1 conversation\(s\)/ })
      .waitFor();
    await page.getByRole('list', { name: 'Transcript' }).waitFor({ state: 'detached' });
    const audit = page.getByRole('group', { name: 'Erasures' });
    await audit.getByRole('row').filter({ hasText: 'Request' }).waitFor();
    expect(await audit.textContent()).toContain('1 conversation(s)');
    expect(await tracesOf(h.platform.deps, [visitor.visitorId, marker])).toEqual([]);

    await page.getByLabel('Keep conversations').selectOption('30');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await h.api<{ retention: { days: number | null } }>('visitors/retention_get')).body.data.retention).toEqual({ days: 30 });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'visitor-data');
  });
});
