import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch, DEFAULT_CRAWL_LIMITS, fetchPage, loadRobots, readSitemap, siteScope, type GuardedFetch, type PageFetch, type PageFetchContext } from '../../src/domains/knowledge/crawl';
import { PLAUSIBLE_ATTRIBUTION, startPlausibleSite, type PlausibleSite } from '../support/plausible-site';

/** The crawl parts against the realistic test site (the Plausible help center built into HTML, on loopback). */
let site: PlausibleSite;
let fetcher: GuardedFetch;
let context: PageFetchContext;

beforeAll(async () => {
  site = await startPlausibleSite();
  fetcher = createGuardedFetch({ allowLocal: true });
  context = { fetcher, scope: siteScope(site.url), robots: await loadRobots(site.origin, fetcher), limits: DEFAULT_CRAWL_LIMITS };
});

afterAll(async () => {
  fetcher?.close();
  await site?.close();
});

const fresh = { etag: null, lastModified: null };
const page = (result: PageFetch) => {
  if (result.kind !== 'page') throw new Error(`expected a page, got ${JSON.stringify(result)}`);
  return result;
};

describe('crawling the Plausible help center site', () => {
  it('finds every page through robots.txt and the sitemap, and refuses what robots.txt disallows', async () => {
    expect(context.robots.sitemaps).toEqual([site.sitemapUrl]);
    const urls = await readSitemap(site.sitemapUrl, fetcher, DEFAULT_CRAWL_LIMITS);
    expect(urls).toHaveLength(site.slugs().length + 1);
    expect(urls).toContain(site.pageUrl('subscription-plans'));
    expect(await readSitemap(site.sitemapUrl, fetcher, { ...DEFAULT_CRAWL_LIMITS, maxPages: 10 })).toHaveLength(10);
    expect(await fetchPage(`${site.origin}/admin/`, fresh, context)).toMatchObject({ kind: 'failed', code: 'robots' });
  });

  it('reads a page as its main content in sections with anchors, the frame and attribution left out, and its site links', async () => {
    const pricing = page(await fetchPage(site.pageUrl('subscription-plans'), fresh, context));
    expect(pricing.document.title).toBe('Plausible pricing and subscription plans | Plausible docs');
    expect(pricing.document.sections.find((section) => section.anchor === 'which-plan-should-i-choose')).toMatchObject({
      headingPath: ['Plausible pricing and subscription plans', 'Which plan should I choose?'],
      text: expect.stringContaining('Starter'),
    });
    const text = pricing.document.sections.map((section) => section.text).join('\n');
    expect(text).not.toContain(PLAUSIBLE_ATTRIBUTION);
    expect(text).not.toContain('dataLayer');
    expect(pricing.document.links).toContain(site.pageUrl('introduction'));
    expect(pricing.document.links.every((link) => link.startsWith(`${site.origin}/`) && !link.includes('#') && !link.includes('/admin/'))).toBe(true);
    const raw = await (await fetch(site.pageUrl('subscription-plans'))).text();
    expect(raw).toContain(PLAUSIBLE_ATTRIBUTION);
  });

  it('reads every page of the site, and the links between pages lead to pages', async () => {
    const slugs = site.slugs();
    // Four at a time, as a crawl's consumers fetch: the site builds each page on its first request.
    const results: PageFetch[] = [];
    for (let index = 0; index < slugs.length; index += 4) {
      results.push(...(await Promise.all(slugs.slice(index, index + 4).map((slug) => fetchPage(site.pageUrl(slug), fresh, context)))));
    }
    expect(results.filter((result) => result.kind !== 'page')).toEqual([]);
    const linked = new Set(results.flatMap((result) => page(result).document.links));
    const pages = new Set([site.url, ...slugs.map((slug) => site.pageUrl(slug))]);
    expect([...linked].filter((link) => pages.has(link)).length).toBeGreaterThan(slugs.length / 2);
  }, 120_000);

  it('answers a sync as the last sync left it: not modified, changed, added, gone', async () => {
    const first = page(await fetchPage(site.pageUrl('billing'), fresh, context));
    const other = page(await fetchPage(site.pageUrl('change-plan'), fresh, context));
    expect(first.etag).toMatch(/^".+"$/);
    expect(first.lastModified).toBe('Fri, 24 Jul 2026 00:00:00 GMT');
    expect(await fetchPage(site.pageUrl('billing'), { etag: first.etag, lastModified: first.lastModified }, context)).toEqual({ kind: 'not_modified' });
    expect(await fetchPage(site.pageUrl('billing'), { etag: null, lastModified: first.lastModified }, context)).toEqual({ kind: 'not_modified' });

    site.setPage('billing', `${site.markdown('billing')}\n\n## Refunds\n\nRefunds are made within 14 days.\n`);
    site.setPage('opening-hours', '---\ntitle: Opening hours\n---\n\nOur support answers from 9 to 17 CET, Monday to Friday.\n');
    site.deletePage('change-plan');

    const changed = page(await fetchPage(site.pageUrl('billing'), { etag: first.etag, lastModified: first.lastModified }, context));
    expect(changed.contentHash).not.toBe(first.contentHash);
    expect(changed.document.sections.at(-1)).toMatchObject({ anchor: 'refunds', text: 'Refunds are made within 14 days.' });
    expect(await fetchPage(site.pageUrl('change-plan'), { etag: other.etag, lastModified: other.lastModified }, context)).toMatchObject({ kind: 'failed', code: 'gone' });
    expect(await readSitemap(site.sitemapUrl, fetcher, DEFAULT_CRAWL_LIMITS)).toEqual(expect.arrayContaining([site.pageUrl('opening-hours')]));
    expect(await readSitemap(site.sitemapUrl, fetcher, DEFAULT_CRAWL_LIMITS)).not.toContain(site.pageUrl('change-plan'));
    // Every page's navigation changed (a page added, one gone): new markup, same text, same hash.
    const before = page(await fetchPage(site.pageUrl('download-invoices'), fresh, context));
    site.deletePage('opening-hours');
    const after = page(await fetchPage(site.pageUrl('download-invoices'), { etag: before.etag, lastModified: null }, context));
    expect(after.etag).not.toBe(before.etag);
    expect(after.contentHash).toBe(before.contentHash);
  });
});
