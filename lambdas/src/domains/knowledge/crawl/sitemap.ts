import { XMLParser } from 'fast-xml-parser';
import { gunzipSync } from 'node:zlib';
import { CrawlError } from './errors';
import type { GuardedFetch } from './guarded-fetch';
import type { CrawlLimits } from './limits';
import { inScope, normalizeUrl, siteScope } from './scope';

/** The sitemaps protocol's own bounds: 50 MB uncompressed per file; an index is followed at most this far. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
const MAX_SITEMAP_FILES = 20;

const xml = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === 'url' || name === 'sitemap',
  // Entity expansion keeps the parser's own bounds (counts and expanded length), so a "billion laughs" file fails.
});

interface SitemapXml {
  urlset?: { url?: Array<{ loc?: unknown }> };
  sitemapindex?: { sitemap?: Array<{ loc?: unknown }> };
}

/**
 * The page URLs a sitemap lists (XML, gzipped XML or a plain list of URLs), sitemap indexes followed, in scope of
 * the sitemap's own site only, normalized, each once, at most `maxPages`. Nested sitemaps that cannot be read are
 * skipped; the first one failing is a CrawlError (the source's error).
 */
export async function readSitemap(url: string, fetcher: GuardedFetch, limits: CrawlLimits): Promise<string[]> {
  const scope = siteScope(url);
  const pages = new Set<string>();
  const queue = [url];
  const seen = new Set(queue);
  for (let files = 0; files < MAX_SITEMAP_FILES && queue.length > 0 && pages.size < limits.maxPages; files += 1) {
    const next = queue.shift()!;
    let entries: ReturnType<typeof entriesOf>;
    try {
      entries = entriesOf(await download(next, fetcher, limits, (target) => (inScope(scope, target) ? null : 'the sitemap redirects off the site')));
    } catch (error) {
      if (next === url) throw error;
      continue;
    }
    for (const nested of entries.sitemaps) {
      const normalized = normalizeUrl(nested);
      if (normalized && inScope(scope, normalized) && !seen.has(normalized)) {
        seen.add(normalized);
        queue.push(normalized);
      }
    }
    for (const page of entries.pages) {
      const normalized = normalizeUrl(page);
      if (normalized && inScope(scope, normalized)) pages.add(normalized);
      if (pages.size >= limits.maxPages) break;
    }
  }
  return [...pages];
}

async function download(url: string, fetcher: GuardedFetch, limits: CrawlLimits, mayFollow: (url: string) => string | null): Promise<string> {
  const response = await fetcher.get(url, { maxBytes: MAX_SITEMAP_BYTES, maxRedirects: limits.maxRedirects, timeoutMs: limits.timeoutMs, mayFollow });
  if (response.status !== 200)
    throw new CrawlError(response.status === 404 || response.status === 410 ? 'gone' : 'http_error', `the sitemap ${url} answered HTTP ${response.status}`);
  let body = response.body;
  // A `.xml.gz` sitemap is served as a gzip file, not with a Content-Encoding: unpacked here, under the same bound.
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      body = gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES });
    } catch {
      throw new CrawlError('malformed', `the sitemap ${url} is not valid gzip or unpacks past ${MAX_SITEMAP_BYTES / 1024 / 1024} MB`);
    }
  }
  return new TextDecoder().decode(body);
}

function entriesOf(text: string): { pages: string[]; sitemaps: string[] } {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('<')) return { pages: trimmed.split(/\s+/).filter((line) => /^https?:\/\//i.test(line)), sitemaps: [] };
  let parsed: SitemapXml;
  try {
    parsed = xml.parse(trimmed) as SitemapXml;
  } catch (error) {
    throw new CrawlError('malformed', `the sitemap is not valid XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const locations = (entries: Array<{ loc?: unknown }> | undefined) =>
    (entries ?? []).map((entry) => (typeof entry.loc === 'string' ? entry.loc.trim() : '')).filter(Boolean);
  return { pages: locations(parsed.urlset?.url), sitemaps: locations(parsed.sitemapindex?.sitemap) };
}
