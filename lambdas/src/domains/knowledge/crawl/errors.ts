import type { ContentErrorReason } from '../content/extract';

/**
 * Why a URL could not be crawled, as a code the core keeps with the document (and a message said plainly):
 * `gone` (404, 410) means the page no longer exists and its document may be removed; `timeout`, `network` and
 * `unavailable` (a 5xx or 429: a site under load) say nothing of the page, whose last indexed text is kept.
 */
export type CrawlFailureCode =
  | ContentErrorReason
  | 'invalid_url'
  | 'blocked'
  | 'out_of_scope'
  | 'robots'
  | 'too_many_redirects'
  | 'timeout'
  | 'network'
  | 'http_error'
  | 'unavailable'
  | 'gone';

/** Failures that say nothing of the page itself: it is tried again at the next sync, and keeps what it had. */
export const TRANSIENT_CRAWL_FAILURES: ReadonlySet<CrawlFailureCode> = new Set(['timeout', 'network', 'unavailable']);

export class CrawlError extends Error {
  constructor(
    readonly code: CrawlFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'CrawlError';
  }
}
