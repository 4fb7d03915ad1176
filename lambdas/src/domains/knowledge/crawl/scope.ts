import { parse } from 'tldts';
import { CrawlError } from './errors';

/** The site a crawl keeps to: its start origin, and the registrable domain every page must share (`acme.com`). */
export interface SiteScope {
  origin: string;
  registrableDomain: string;
}

/**
 * The registrable domain of a host by the Public Suffix List, private suffixes included (so `a.github.io` and
 * `b.github.io` are two sites); an IP address, `localhost` or a single-label name is a site of its own.
 */
function registrableDomainOf(hostname: string): string {
  const host = hostname.replace(/\.$/, '').toLowerCase();
  const parsed = parse(host, { allowPrivateDomains: true });
  return parsed.isIp || !parsed.domain ? host.replace(/^\[|\]$/g, '') : parsed.domain;
}

function parseCrawlable(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || !url.hostname) return null;
  return url;
}

/** The scope of a crawl from its start page or sitemap. Throws CrawlError('invalid_url') for a URL never crawlable. */
export function siteScope(startUrl: string): SiteScope {
  const url = parseCrawlable(startUrl);
  if (!url) throw new CrawlError('invalid_url', 'the site address must be an http(s) URL without credentials');
  return { origin: url.origin, registrableDomain: registrableDomainOf(url.hostname) };
}

/** Whether a URL belongs to the site: http(s), no credentials, the same registrable domain (any subdomain, any port). */
export function inScope(scope: SiteScope, url: string): boolean {
  const parsed = parseCrawlable(url);
  return parsed !== null && registrableDomainOf(parsed.hostname) === scope.registrableDomain;
}

/** Query parameters that only say where a visitor came from: the page is the same without them. */
const TRACKING_PARAMETER = /^(utm_[a-z_]+|gclid|dclid|fbclid|msclkid|mc_cid|mc_eid|_ga|_gl|yclid|ref_src)$/i;

/**
 * One spelling per page, so the frontier never sees a page twice under two URLs: absolute, fragment stripped,
 * host lower-cased and default port dropped (the URL parser does both), tracking parameters dropped, the remaining
 * query parameters sorted. Null for what is not an http(s) URL.
 */
export function normalizeUrl(raw: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.hash = '';
  for (const name of [...url.searchParams.keys()]) if (TRACKING_PARAMETER.test(name)) url.searchParams.delete(name);
  url.searchParams.sort();
  if (url.search === '?') url.search = '';
  return url.href;
}
