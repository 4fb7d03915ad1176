import type { RunSource } from '@service/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/browser/chromium';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { apiClient, newDemoKey, type ApiCall, startTestPlatform } from '../support/platform';
import { startHelpCenter, type HelpCenter } from '../support/help-center/help-center';
import { command, waitForRun, type RunView } from '../support/runs';
import { createSource, waitForSource } from './helpers';

// A company's help center as its agent's knowledge (issue 28), end to end: the site (the team's help center, served on
// loopback) is crawled from its sitemap, then a visitor on one of its pages asks the widget in Chromium and gets
// the answer with the right page cited as a Page card, and the same question as a REST command gets it in `sources`.

const QUESTION = 'How do I enable two-factor authentication?';
const TWO_FA_PAGE = /\/docs\/2fa(?:#[\w-]+)?$/;
const WIDGET = { fab: '#service-chat .scw-fab', input: '#service-chat textarea', botDone: '#service-chat .scw-msg[data-role=bot][data-done=true]' };

let site: HelpCenter;
let platform: RunningPlatform;
let browser: Browser;
let api: ApiCall;

beforeAll(async () => {
  const key = newDemoKey();
  // The pages about signing in and account security, all of which speak of two-factor authentication: the right one must win.
  site = await startHelpCenter({
    only: [
      'introduction',
      '2fa',
      'account-settings',
      'mobile-app',
      'reset-password',
      'sso',
      'team-settings',
      'users-roles',
      'billing',
      'subscription-plans',
      'data-privacy',
    ],
  });
  // WEBHOOK_ALLOW_LOCAL: the site is on loopback, which the outbound guard refuses otherwise.
  [platform, browser] = await Promise.all([
    startTestPlatform({ env: { SERVICE_DEMO_API_KEY: key, WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '1000' } }),
    launchChromium(),
  ]);
  api = apiClient(platform.apiBaseUrl, key);
  const source = await createSource(api, { type: 'website', url: site.sitemapUrl, name: 'Help center' });
  const synced = await waitForSource(api, source.id, (current) => current.status === 'ready' || current.status === 'failed', 240_000);
  expect(synced).toMatchObject({ status: 'ready', error: null });
  expect(synced.documents).toBeGreaterThanOrEqual(10);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await site?.close();
});

/**
 * A page of the site with the company's embed tag added, as a tag manager adds it (the page itself is the site's own,
 * served from its loopback origin: a page Playwright answered itself would count as public to Chromium, which then
 * refuses it the loopback platform).
 */
async function sitePageWithWidget(path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${site.origin}${path}`);
  await page.evaluate(
    ({ src, agentId }) => {
      const tag = Object.assign(document.createElement('script'), { src, async: true });
      Object.assign(tag.dataset, { agentId, showDelay: '0', teaserDelay: '600000', idleNudgeDelay: '0' });
      document.body.append(tag);
    },
    { src: `${platform.url}/embed/loader.js`, agentId: platform.demo.agentId },
  );
  return page;
}

describe('the agent answers from a crawled help center', () => {
  it('answers a visitor in the widget with the right page of the site cited as a Page card', async () => {
    const page = await sitePageWithWidget('/docs/introduction');
    await page.click(WIDGET.fab);
    await page.fill(WIDGET.input, QUESTION);
    await page.keyboard.press('Enter');
    const reply = page.locator(WIDGET.botDone).last();
    await reply.waitFor();
    expect(await reply.textContent()).toMatch(/2FA|two-factor/i);
    const card = reply.locator('.scw-card-page');
    expect(await card.count()).toBeGreaterThan(0);
    expect(await card.first().textContent()).toMatch(/2FA|two-factor/i);
    // The card leads to the cited page: the widget asks the host page to navigate there.
    await page.evaluate(() => {
      const w = window as unknown as { __navigated: string[] };
      w.__navigated = [];
      window.__service_chat!.on('navigate', (payload) => w.__navigated.push((payload as { href: string }).href));
    });
    await card.first().click();
    const navigated = await page.waitForFunction(() => (window as unknown as { __navigated: string[] }).__navigated[0]);
    expect(await navigated.jsonValue()).toMatch(TWO_FA_PAGE);
    await page.context().close();
  });

  it('gives the same question, as a REST command, the page in its sources', async () => {
    const run = (await waitForRun(api, await command(api, { agent_id: platform.demo.agentId, instruction: QUESTION }), 60_000)) as RunView & {
      sources: RunSource[];
    };
    expect(run.status).toBe('completed');
    expect(run.sources[0]!.url!.startsWith(`${site.origin}/`)).toBe(true);
    expect(run.sources[0]!.url).toMatch(TWO_FA_PAGE);
    expect(run.sources[0]!.quote).toMatch(/2FA|two-factor/i);
    expect(run.output).toMatchObject({ sources: run.sources });
  });
});
