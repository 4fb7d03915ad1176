import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { startPlausibleSite, type PlausibleSite } from '../support/plausible-site';
import { createSource, deleteAllSources, search, waitForSource } from './helpers';

// Ranking weaknesses found by hand on a real help center (the Plausible docs crawled from its sitemap), asked through
// knowledge/search as the agent's tool asks: the page about the question must come first, with the section about it.

const REFUNDS = `---
title: Refunds
---

We want you to be happy with Plausible Analytics. If the product is not right for you, we give your money back.

## Who can get a refund

Every first payment of a monthly or yearly subscription can be refunded within 30 days, whatever the reason. Renewals
are refunded when you cancelled before the renewal date and did not use the site after it.

## How to request a refund

Write to support from the email address of your account and tell us the invoice number. You do not need to cancel
first: we cancel the subscription for you when we refund it.

## When the money arrives

Refunds go back to the card or PayPal account that paid, through Paddle, within five to ten business days.
`;

const PAGES = ['introduction', 'billing', 'cancel-subscription', 'change-plan', 'subscription-plans', 'download-invoices', 'trial-to-paid', '2fa', 'account-settings', 'login-management', 'reset-password', 'team-settings', 'users-roles', 'sso'];

let site: PlausibleSite;
const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '1000' } });

beforeAll(async () => {
  site = await startPlausibleSite({ only: PAGES, popular: ['refunds', 'change-plan', '2fa'] });
  site.setPage('refunds', REFUNDS);
  await deleteAllSources(ctx.api);
  const source = await createSource(ctx.api, { type: 'website', url: site.sitemapUrl, name: 'Help center' });
  expect(await waitForSource(ctx.api, source.id, (current) => current.status !== 'queued' && current.status !== 'indexing', 120_000)).toMatchObject({ status: 'ready', documents: PAGES.length + 2 });
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

  it("answers with the page's sections that score close, so the one that answers the question is not hidden", async () => {
    const results = await search(ctx.api, 'how do I enable two-factor authentication');
    expect(results[0]?.url).toMatch(/\/docs\/2fa#[\w-]+$/);
    // Every section of the 2FA page speaks of two-factor authentication (its title): the one about enabling it must be among the passages.
    const enable = results.find((result) => result.url === site.pageUrl('2fa#how-to-enable-2fa'));
    expect(enable?.text).toContain('Enable 2FA');
    expect(results.filter((result) => result.url?.startsWith(site.pageUrl('2fa#'))).length).toBeGreaterThan(1);
  });
});
