import { ContentError, contentHash, extractDocument, type ExtractedDocument } from '../content/extract';
import { CrawlError, type CrawlFailureCode } from './errors';
import type { GuardedFetch } from './guarded-fetch';
import type { CrawlLimits } from './limits';
import type { RobotsRules } from './robots';
import { inScope, normalizeUrl, type SiteScope } from './scope';

export type PageFetch =
  | { kind: 'not_modified' }
  | { kind: 'page'; finalUrl: string; document: ExtractedDocument; etag: string | null; lastModified: string | null; contentHash: string }
  | { kind: 'failed'; code: CrawlFailureCode; reason: string };

export interface PageFetchContext {
  fetcher: GuardedFetch;
  scope: SiteScope;
  robots: RobotsRules;
  limits: CrawlLimits;
}

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/markdown;q=0.8,text/plain;q=0.8,application/pdf;q=0.7,*/*;q=0.1';

/**
 * One page of a site, fetched through the guard and kept to the site: in scope and allowed by robots.txt before the
 * request and at every redirect, conditional on what the last sync saw (ETag, Last-Modified: a 304 is not_modified),
 * bounded in bytes, redirects and time, its text extracted. The document's links are the site's pages it links to,
 * normalized (one URL per page), for the frontier. Every failure is this page's own, with its code and reason.
 */
export async function fetchPage(url: string, previous: { etag: string | null; lastModified: string | null }, context: PageFetchContext): Promise<PageFetch> {
  const { fetcher, scope, robots, limits } = context;
  const refusal = (target: string) =>
    !inScope(scope, target) ? `it is not on ${scope.registrableDomain}` : robots.isAllowed(target) ? null : (robots.unreadable ?? 'robots.txt disallows it');
  const start = normalizeUrl(url);
  if (!start) return failed('invalid_url', `${url} is not an http(s) URL`);
  const refused = refusal(start);
  if (refused) return failed(inScope(scope, start) ? 'robots' : 'out_of_scope', `${start} is not crawled: ${refused}`);
  try {
    const response = await fetcher.get(start, {
      maxBytes: limits.maxPageBytes,
      maxRedirects: limits.maxRedirects,
      timeoutMs: limits.timeoutMs,
      headers: {
        accept: ACCEPT,
        ...(previous.etag ? { 'if-none-match': previous.etag } : {}),
        ...(previous.lastModified ? { 'if-modified-since': previous.lastModified } : {}),
      },
      mayFollow: refusal,
    });
    if (response.status === 304) return { kind: 'not_modified' };
    if (response.status === 404 || response.status === 410) return failed('gone', `${start} answered HTTP ${response.status}`);
    if (response.status === 429 || response.status >= 500) return failed('unavailable', `${start} answered HTTP ${response.status}`);
    if (response.status !== 200) return failed('http_error', `${start} answered HTTP ${response.status}`);
    const finalUrl = normalizeUrl(response.url) ?? response.url;
    const extracted = await extractDocument({
      body: response.body,
      contentType: response.headers['content-type'] ?? '',
      url: finalUrl,
      name: decodeURIComponent(new URL(finalUrl).pathname.split('/').pop() ?? ''),
    });
    const document = { ...extracted, links: siteLinks(extracted.links, context) };
    const header = (name: string) => {
      const value = response.headers[name];
      return typeof value === 'string' ? value : null;
    };
    return { kind: 'page', finalUrl, document, etag: header('etag'), lastModified: header('last-modified'), contentHash: contentHash(document) };
  } catch (error) {
    if (error instanceof CrawlError) return failed(error.code, error.message);
    if (error instanceof ContentError) return failed(error.reason, error.message);
    throw error;
  }
}

const failed = (code: CrawlFailureCode, reason: string): PageFetch => ({ kind: 'failed', code, reason });

/** The links worth a visit: on the site, allowed by robots.txt, one spelling each. */
function siteLinks(links: string[], { scope, robots }: PageFetchContext): string[] {
  const kept = new Set<string>();
  for (const link of links) {
    const normalized = normalizeUrl(link);
    if (normalized && inScope(scope, normalized) && robots.isAllowed(normalized)) kept.add(normalized);
  }
  return [...kept];
}
