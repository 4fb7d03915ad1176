import type { ContentErrorReason } from '../content/extract';

/**
 * Why a URL could not be crawled, as a code the core keeps with the document (and a message said plainly):
 * `gone` (404, 410) means the page no longer exists and its document may be removed; the others leave it as it was.
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
  | 'gone';

export class CrawlError extends Error {
  constructor(
    readonly code: CrawlFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'CrawlError';
  }
}
