/** Seam 1 of the knowledge split: what the core's crawl frontier and re-sync call. */
export { CrawlError, TRANSIENT_CRAWL_FAILURES, type CrawlFailureCode } from './errors';
export { createGuardedFetch, type GuardedFetch, type GuardedRequest, type GuardedResponse } from './guarded-fetch';
export { CRAWLER_USER_AGENT, DEFAULT_CRAWL_LIMITS, type CrawlLimits } from './limits';
export { fetchPage, type PageFetch, type PageFetchContext } from './page';
export { loadRobots, type RobotsRules } from './robots';
export { inScope, normalizeUrl, siteScope, type SiteScope } from './scope';
export { readSitemap } from './sitemap';
