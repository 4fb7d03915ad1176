import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { until } from '../../../lambdas/test/support/runs';
import { heading, OWNER_EMAIL, screenshot, signIn, startDashboard, type DashboardHarness } from './support';

// The Runs screen shows a running run's text as the model writes it (the run stream's text_delta pieces). The offline
// model writes at a hosted model's pace here, as under `npm start`. Its own platform and browser.

let h: DashboardHarness;
let page: Page;
beforeAll(async () => {
  h = await startDashboard({ OFFLINE_MODEL_DELTA_PAUSE_MS: '100' });
  page = (await h.open('/dashboard/')).page;
  await heading(page, 'Sign in');
  await signIn(h, page, OWNER_EMAIL);
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

type Status = { status: string; steps: { type: string; text?: string }[] };

describe('a running run on the Runs screen', () => {
  it('shows the text growing as the model writes it, up to the text the run stores', async () => {
    await page.evaluate((target) => (location.hash = target), `#/agents/${h.agentId}/runs`);
    await heading(page, /^Runs$/);
    // Every text the live view shows, in order, as the page changes (read in the page: no polling of ours).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { liveTexts: string[] }).liveTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('.live-text')?.textContent ?? '';
        if (text && text !== seen.at(-1)) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel('Command').fill('Hello there, what can you do for me?');
    await page.getByRole('button', { name: 'Give the command' }).click();
    const run = page.locator('.run', { hasText: 'Hello there, what can you do for me?' }).first();
    await run.locator('.live-text').waitFor({ timeout: 20_000 });
    expect(await run.getByRole('heading', { name: 'Writing' }).count()).toBe(1);
    // Growing: three ever longer texts, each the one before it and more, while the run runs.
    await page.waitForFunction(() => (window as unknown as { liveTexts: string[] }).liveTexts.length >= 3, undefined, { timeout: 20_000 });
    await screenshot(page, 'runs-live-text');
    await run.and(page.locator('[data-status=completed]')).waitFor({ timeout: 30_000 });

    const texts = await page.evaluate(() => (window as unknown as { liveTexts: string[] }).liveTexts);
    const runId = (await run.locator('.mono').last().textContent())!.trim();
    const status = await until(
      async () => (await h.api<Status>('agents/command_status/', { query: { run_id: runId } })).body.data,
      (data) => data.status === 'completed',
      10_000,
    );
    const stored = status.steps.find((step) => step.type === 'text' && step.text)!.text!;
    texts.forEach((text, index) => index > 0 && expect(text.startsWith(texts[index - 1]!) && text.length > texts[index - 1]!.length).toBe(true));
    expect(stored.startsWith(texts.at(-1)!)).toBe(true);
    expect(texts[0]!.length).toBeLessThan(stored.length);
  });
});
