import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuardedFetch,
  DEFAULT_CRAWL_LIMITS,
  fetchPage,
  loadRobots,
  readSitemap,
  siteScope,
  type GuardedFetch,
  type PageFetch,
  type PageFetchContext,
} from '../../src/domains/knowledge/crawl';
import { PRICE_LIST_PATH, startHelpCenter, type HelpCenter } from '../support/help-center/help-center';

/** The crawl parts against the realistic test site (the team's help center built into HTML, on loopback). */
let site: HelpCenter;
let fetcher: GuardedFetch;
let context: PageFetchContext;
/** The site's footer, on every page and never in what is extracted. */
const FOOTER = '© 2026 Tallyfern';

beforeAll(async () => {
  site = await startHelpCenter();
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

describe('crawling the help center site', () => {
  it('finds every page through robots.txt and the sitemap, and refuses what robots.txt disallows', async () => {
    expect(context.robots.sitemaps).toEqual([site.sitemapUrl]);
    const urls = await readSitemap(site.sitemapUrl, fetcher, DEFAULT_CRAWL_LIMITS);
    // The pages, the home page and the price list (a PDF).
    expect(urls).toHaveLength(site.slugs().length + 2);
    expect(urls).toEqual(expect.arrayContaining([site.pageUrl('subscription-plans'), site.pageUrl('de/preise'), `${site.origin}${PRICE_LIST_PATH}`]));
    expect(await readSitemap(site.sitemapUrl, fetcher, { ...DEFAULT_CRAWL_LIMITS, maxPages: 10 })).toHaveLength(10);
    expect(await fetchPage(`${site.origin}/admin/`, fresh, context)).toMatchObject({ kind: 'failed', code: 'robots' });
  });

  it('reads a page as its main content in sections with anchors, the frame and attribution left out, and its site links', async () => {
    const pricing = page(await fetchPage(site.pageUrl('subscription-plans'), fresh, context));
    expect(pricing.document.title).toBe('Plans and prices | Tallyfern Help');
    expect(pricing.document.sections.find((section) => section.anchor === 'team')).toMatchObject({
      headingPath: ['Plans and prices', 'Team'],
      text: expect.stringContaining('€29 a month'),
    });
    const text = pricing.document.sections.map((section) => section.text).join('\n');
    expect(text).not.toContain(FOOTER);
    expect(text).not.toContain('dataLayer');
    expect(pricing.document.links).toEqual(expect.arrayContaining([site.pageUrl('introduction'), site.pageUrl('billing'), `${site.origin}${PRICE_LIST_PATH}`]));
    expect(pricing.document.links.every((link) => link.startsWith(`${site.origin}/`) && !link.includes('#') && !link.includes('/admin/'))).toBe(true);
    const raw = await (await fetch(site.pageUrl('subscription-plans'))).text();
    expect(raw).toContain(FOOTER);
  });

  it('reads the price list the plans page links (a PDF) page by page, and the German page as German', async () => {
    const pdf = page(await fetchPage(`${site.origin}${PRICE_LIST_PATH}`, fresh, context));
    expect(pdf.document.title).toBe('Tallyfern price list');
    expect(pdf.document.sections.map((section) => section.anchor)).toEqual(['page=1', 'page=2']);
    expect(pdf.document.sections[1]!.text).toContain('two months free');
    const german = page(await fetchPage(site.pageUrl('de/preise'), fresh, context));
    expect(german.document.sections.find((section) => section.anchor === 'team')?.text).toContain('29 € im Monat');
    expect(german.document.links).toContain(site.pageUrl('subscription-plans'));
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
    expect(first.lastModified).toBe('Mon, 04 May 2026 00:00:00 GMT');
    expect(await fetchPage(site.pageUrl('billing'), { etag: first.etag, lastModified: first.lastModified }, context)).toEqual({ kind: 'not_modified' });
    expect(await fetchPage(site.pageUrl('billing'), { etag: null, lastModified: first.lastModified }, context)).toEqual({ kind: 'not_modified' });

    site.setPage('billing', `${site.markdown('billing')}\n\n## Refunds\n\nRefunds are made within 14 days.\n`);
    site.setPage('opening-hours', '---\ntitle: Opening hours\n---\n\nOur support answers from 9 to 17 CET, Monday to Friday.\n');
    site.deletePage('change-plan');

    const changed = page(await fetchPage(site.pageUrl('billing'), { etag: first.etag, lastModified: first.lastModified }, context));
    expect(changed.contentHash).not.toBe(first.contentHash);
    expect(changed.document.sections.at(-1)).toMatchObject({ anchor: 'refunds', text: 'Refunds are made within 14 days.' });
    expect(await fetchPage(site.pageUrl('change-plan'), { etag: other.etag, lastModified: other.lastModified }, context)).toMatchObject({
      kind: 'failed',
      code: 'gone',
    });
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
