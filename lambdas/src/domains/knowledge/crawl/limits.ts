/** The bounds of one website crawl. The frontier (the core's) keeps to pages and depth; a page fetch to the rest. */
export interface CrawlLimits {
  maxPages: number;
  /** Links followed from the start page: the start is depth 0. */
  maxDepth: number;
  /** The most one response may weigh once decompressed (a larger one is refused as too_large, never read whole). */
  maxPageBytes: number;
  maxRedirects: number;
  /** One fetch, from the request to the last byte of the body, redirects included. */
  timeoutMs: number;
}

export const DEFAULT_CRAWL_LIMITS: CrawlLimits = {
  maxPages: 500,
  maxDepth: 6,
  maxPageBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  timeoutMs: 15_000,
};

/** Who we are to the sites we crawl: the token robots.txt groups name (`User-agent: ServiceKnowledgeBot`). */
export const CRAWLER_USER_AGENT = 'ServiceKnowledgeBot/1.0';
export const CRAWLER_TOKEN = 'ServiceKnowledgeBot';
