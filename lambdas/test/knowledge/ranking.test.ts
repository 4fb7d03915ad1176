import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { startHelpCenter, type HelpCenter } from '../support/help-center/help-center';
import { createSource, deleteAllSources, search, waitForSource } from './helpers';

// Ranking weaknesses found by hand on a real help center crawled from its sitemap, kept here on the team's own help
// center, asked through knowledge/search as the agent's tool asks: the page about the question must come first, with
// the section about it.

const PAGES = [
  'introduction',
  'billing',
  'cancel-subscription',
  'change-plan',
  'subscription-plans',
  'download-invoices',
  'trial',
  'refunds',
  '2fa',
  'account-settings',
  'reset-password',
  'team-settings',
  'users-roles',
  'sso',
];

let site: HelpCenter;
const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '1000' } });

beforeAll(async () => {
  // The home page lists some pages by title, as a help center's home shows its popular articles.
  site = await startHelpCenter({ only: PAGES, popular: ['refunds', 'change-plan', '2fa'], withPdf: false });
  await deleteAllSources(ctx.api);
  const source = await createSource(ctx.api, { type: 'website', url: site.sitemapUrl, name: 'Help center' });
  expect(await waitForSource(ctx.api, source.id, (current) => current.status !== 'queued' && current.status !== 'indexing', 120_000)).toMatchObject({
    status: 'ready',
    documents: PAGES.length + 1,
  });
}, 180_000);

afterAll(async () => {
  await site?.close();
});

describe('ranking a help center', () => {
  it('puts the page about a topic before a short page that merely links to it', async () => {
    const results = await search(ctx.api, 'how do I get a refund');
    expect(results[0]?.url).toMatch(/\/docs\/refunds(#[\w-]+)?$/);
    expect(results.findIndex((result) => result.url?.startsWith(site.url) && !result.url.includes('/docs/'))).not.toBe(0);
  });

  it('puts the section that answers the question first, before its siblings that speak of the same subject', async () => {
    const results = await search(ctx.api, 'how do I enable two-factor authentication');
    // Every section of the 2FA page speaks of two-factor authentication (its title): the one about enabling it must lead.
    expect(results[0]?.url).toBe(site.pageUrl('2fa#how-to-enable-2fa'));
    expect(results[0]?.text).toContain('Enable 2FA');
  });
});
