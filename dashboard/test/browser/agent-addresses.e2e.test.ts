import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, heading, OWNER_EMAIL, signIn, startDashboard, type DashboardHarness } from './support';

// An agent's screen opened by an address that names no agent (an old bookmark, a hand-typed or truncated link) leads
// to the agents list, which asks for the agent in plain words: never the API's refusal of a missing agent_id. Its own
// platform and browser, so it runs beside the other dashboard suites.

let h: DashboardHarness;
let page: Page;
beforeAll(async () => {
  h = await startDashboard();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

/** The agents list asking for the agent of `screen`, settled: the demo agent's card shown, nothing refused. */
async function expectAgentChoice(screen: string) {
  await heading(page, /^Agents$/);
  const note = page.locator('main .note', { hasText: 'this address names none' });
  await note.waitFor();
  expect(await note.textContent()).toBe(`The ${screen} screen belongs to one agent, and this address names none. Choose the agent below.`);
  await page.getByRole('list', { name: 'Ada' }).waitFor();
  expect(await page.locator('main [role=alert]').count()).toBe(0);
  expect(await page.locator('main').textContent()).not.toMatch(/agent_id|VALIDATION_ERROR/);
  const current = page.getByRole('navigation', { name: 'Dashboard' }).locator('[aria-current=page]');
  expect(await current.textContent()).toBe('Agents');
}

describe('an agent screen’s address without an agent', () => {
  it('opened signed out (an old bookmark of #/conversations), asks after sign-in which agent, and goes on to its conversations', async () => {
    ({ page } = await h.open('/dashboard/#/conversations'));
    await heading(page, 'Sign in');
    await signIn(h, page, OWNER_EMAIL, /^Agents$/);
    await expectAgentChoice('Conversations');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('list', { name: 'Ada' }).getByRole('link', { name: 'Conversations' }).click();
    await heading(page, /^Conversations$/);
    expect(await page.evaluate(() => location.hash)).toBe(`#/agents/${h.agentId}/conversations`);
    await page.waitForFunction(() => !document.querySelector('main [role=status]')?.textContent?.startsWith('Loading'));
    expect(await page.locator('main [role=alert]').count()).toBe(0);
  });

  it.each([
    ['#/runs', 'Runs'],
    ['#/settings', 'Settings'],
    ['#/embed', 'Widget Embed'],
    ['#/conversations/', 'Conversations'],
    ['#/agents/runs', 'Runs'],
    ['#/agents/not-an-agent/settings', 'Settings'],
    ['#/agents/%20/embed', 'Widget Embed'],
  ])('%s leads to the agents list, which asks for the agent of %s', async (hash, screen) => {
    await page.evaluate((target) => (location.hash = target), hash);
    await expectAgentChoice(screen);
  });

  it('an address that names the agent still opens its screen', async () => {
    await page.evaluate((target) => (location.hash = target), `#/agents/${h.agentId}/runs`);
    await heading(page, /^Runs$/);
    expect(await page.locator('main .note', { hasText: 'this address names none' }).count()).toBe(0);
  });
});
