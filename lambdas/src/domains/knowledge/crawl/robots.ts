import robotsParser from 'robots-parser';
import { CrawlError } from './errors';
import type { GuardedFetch } from './guarded-fetch';
import { CRAWLER_TOKEN } from './limits';
import { inScope, siteScope } from './scope';

export interface RobotsRules {
  isAllowed(url: string): boolean;
  sitemaps: string[];
  /** Set when robots.txt could not be read and everything is disallowed for now: why, for the pages' errors. */
  unreadable?: string;
}

/** RFC 9309: a crawler must read at least 500 KiB of robots.txt; more is not read. */
const MAX_ROBOTS_BYTES = 512 * 1024;
const ROBOTS_TIMEOUT_MS = 10_000;
const ROBOTS_REDIRECTS = 5;

const allowAll: RobotsRules = { isAllowed: () => true, sitemaps: [] };
const disallowAll = (unreadable: string): RobotsRules => ({ isAllowed: () => false, sitemaps: [], unreadable });

/**
 * The site's robots.txt, as RFC 9309 reads it: rules of the group naming our token, else of `*`. A robots.txt that
 * does not exist (4xx) allows everything; one that cannot be read (5xx, unreachable, refused by the guard) disallows
 * everything for now, as the RFC asks. Rules apply to URLs of this origin; others are not this file's to judge.
 */
export async function loadRobots(origin: string, fetcher: GuardedFetch): Promise<RobotsRules> {
  const robotsUrl = new URL('/robots.txt', origin).href;
  const scope = siteScope(origin);
  let response;
  try {
    response = await fetcher.get(robotsUrl, {
      maxBytes: MAX_ROBOTS_BYTES,
      maxRedirects: ROBOTS_REDIRECTS,
      timeoutMs: ROBOTS_TIMEOUT_MS,
      headers: { accept: 'text/plain' },
      mayFollow: (url) => (inScope(scope, url) ? null : 'robots.txt redirects off the site'),
    });
  } catch (error) {
    if (error instanceof CrawlError) return disallowAll(`robots.txt could not be read: ${error.message}`);
    throw error;
  }
  if (response.status >= 400 && response.status < 500) return allowAll;
  if (response.status !== 200) return disallowAll(`robots.txt answered HTTP ${response.status}`);
  const robots = robotsParser(robotsUrl, new TextDecoder().decode(response.body));
  return {
    isAllowed: (url) => robots.isAllowed(url, CRAWLER_TOKEN) ?? true,
    sitemaps: robots.getSitemaps(),
  };
}
