import { createHash } from 'node:crypto';
import type { Deps } from '../../infra/deps';
import type { KnowledgeStores } from '../../infra/search/knowledge-stores';
import { addToFrontier, deleteFrontierPage, finishPage, frontierPages, leasePage, releasePage, syncKeyOf, type FrontierPage } from './crawl-repository';
import {
  createGuardedFetch,
  DEFAULT_CRAWL_LIMITS,
  fetchPage,
  inScope,
  loadRobots,
  normalizeUrl,
  readSitemap,
  siteScope,
  TRANSIENT_CRAWL_FAILURES,
  type CrawlLimits,
  type GuardedFetch,
  type RobotsRules,
  type SiteScope,
} from './crawl/index';
import { allDocuments, getDocumentItem, type StoredDocument } from './document-repository';
import type { ExtractedDocument } from './content/extract';
import { documentBlobPrefix, markSeen, removeDocument, storeDocument, storeFailedPage } from './documents';
import { documentIdOf } from './indexing';
import { claimSyncEnd, markSyncProgress, markSyncSeeded, type StoredSource } from './source-repository';
import { knowledgeStores } from './stores';
import { finishSync, type KnowledgeMessage } from './sync';

/**
 * A website's sync on the knowledge queue, one page per message. The frontier (crawl-repository.ts) holds each URL of
 * the sync once (a conditional put); a page is leased while it is worked, so a repeated message or a resumed sync never
 * runs it twice at once, and done when its links are in the frontier. The sync ends once its start has queued every
 * seed (`seededSyncId`) and no page is pending: whichever of the two, the start or the last page, sees both ends it.
 * Until then a page done is no sign of the end: on a re-sync most pages answer 304 at once, and the consumer would
 * otherwise catch up with the start's loop, end the sync, remove the pages not queued yet as gone and never index
 * the sitemap's last entries. The pages no fetch of this sync saw are then removed, and the source counted and
 * reported.
 */
const PAGE_LEASE_MS = 2 * 60 * 1000;

export const urlKeyOf = (url: string) => createHash('sha256').update(url).digest('base64url');

const isSitemap = (url: string) => /\.xml(\.gz)?$/i.test(new URL(url).pathname);

/** A page's document name: its address without the scheme. */
const pageName = (url: string) => url.replace(/^https?:\/\//, '');

interface Crawl {
  scope: SiteScope;
  robots: RobotsRules;
  fetcher: GuardedFetch;
  limits: CrawlLimits;
}

/** robots.txt read once per sync in this process (a page per message would otherwise read it again each time). */
const robotsOfSync = new Map<string, Promise<RobotsRules>>();
const ROBOTS_KEPT = 50;

function robotsFor(key: string, load: () => Promise<RobotsRules>): Promise<RobotsRules> {
  let robots = robotsOfSync.get(key);
  if (!robots) {
    robots = load();
    robotsOfSync.set(key, robots);
    robots.catch(() => robotsOfSync.delete(key));
    if (robotsOfSync.size > ROBOTS_KEPT) robotsOfSync.delete(robotsOfSync.keys().next().value!);
  }
  return robots;
}

/** The site's scope, robots.txt and a guarded fetcher (every request and redirect through the outbound guard) for `work`. */
async function withCrawl<T>(deps: Deps, source: StoredSource, syncId: string, work: (crawl: Crawl) => Promise<T>): Promise<T> {
  const scope = siteScope(source.url!);
  const fetcher = createGuardedFetch({ allowLocal: deps.config.webhookAllowLocal });
  try {
    const robots = await robotsFor(syncKeyOf(source.id, syncId), () => loadRobots(scope.origin, fetcher));
    return await work({ scope, fetcher, robots, limits: DEFAULT_CRAWL_LIMITS });
  } finally {
    fetcher.close();
  }
}

/** Puts URLs into the sync's frontier (new ones only, within the page limit) and sends a message for each. */
async function enqueuePages(deps: Deps, source: StoredSource, syncId: string, urls: { url: string; depth: number }[], resend: boolean): Promise<void> {
  const syncKey = syncKeyOf(source.id, syncId);
  const room = DEFAULT_CRAWL_LIMITS.maxPages - (await frontierPages(deps, syncKey)).length;
  const queuedAt = deps.now().toISOString();
  for (const { url, depth } of urls.slice(0, Math.max(0, room))) {
    const urlKey = urlKeyOf(url);
    const added = await addToFrontier(deps, { syncKey, urlKey, url, depth, pending: true, queuedAt });
    // A retried start sends its seeds again: a page already done or under way ignores the message.
    if (added || resend)
      await deps.queue.send('knowledge', { type: 'page', workspaceId: source.workspaceId, sourceId: source.id, syncId, urlKey } satisfies KnowledgeMessage);
  }
}

/** The `sync` message of a website: the previous sync's frontier removed, robots.txt read, the start page or the sitemap's pages queued. */
export async function startWebsiteSync(deps: Deps, source: StoredSource, syncId: string): Promise<void> {
  if (source.previousSyncId && source.previousSyncId !== 'none' && source.previousSyncId !== syncId) {
    await Promise.all((await frontierPages(deps, syncKeyOf(source.id, source.previousSyncId))).map((page) => deleteFrontierPage(deps, page)));
  }
  let seeds: string[];
  try {
    seeds = await withCrawl(deps, source, syncId, async ({ fetcher, robots, scope, limits }) => {
      const listed = isSitemap(source.url!) ? await readSitemap(source.url!, fetcher, limits) : [source.url!];
      return listed.flatMap((url) => {
        const normalized = normalizeUrl(url);
        return normalized && inScope(scope, normalized) && robots.isAllowed(normalized) ? [normalized] : [];
      });
    });
  } catch (error) {
    return finishSync(
      deps,
      source,
      syncId,
      { changed: 0, removed: 0, failed: 0 },
      `The site could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (seeds.length === 0)
    return finishSync(deps, source, syncId, { changed: 0, removed: 0, failed: 0 }, 'No page of the site may be crawled (robots.txt, or an empty sitemap)');
  await enqueuePages(
    deps,
    source,
    syncId,
    seeds.map((url) => ({ url, depth: 0 })),
    true,
  );
  const seeded = await markSyncSeeded(deps, source, syncId);
  // Every page may be done already (all 304s): then no page is left to end the sync, and the start ends it.
  if (seeded) await completeIfDone(deps, await knowledgeStores(deps), seeded, syncId);
}

/** What became of one page: indexed again, unchanged, failed (kept with its reason), or gone (left for the end to remove). */
type PageOutcome = 'changed' | 'unchanged' | 'failed' | 'gone';

async function crawlOne(deps: Deps, stores: KnowledgeStores, source: StoredSource, syncId: string, page: FrontierPage, crawl: Crawl): Promise<PageOutcome> {
  const id = documentIdOf(source.id, page.url);
  const previous = await getDocumentItem(deps, source.id, id);
  const fetched = await fetchPage(page.url, { etag: previous?.etag ?? null, lastModified: previous?.lastModified ?? null }, crawl);
  const seen = { seenSyncId: syncId };
  if (fetched.kind === 'not_modified') {
    if (!previous) return 'gone';
    await markSeen(deps, previous, { etag: previous.etag ?? null, lastModified: previous.lastModified ?? null, ...seen });
    // An unchanged page still leads to the others: its links are those of the text stored when it last changed.
    await followLinks(deps, source, syncId, page, crawl, await storedLinks(stores, previous));
    return 'unchanged';
  }
  if (fetched.kind === 'failed') {
    // A page that is gone is removed when the sync ends (it was not seen); any other failure is kept, with its reason.
    if (fetched.code === 'gone') return 'gone';
    // A site too busy to answer now says nothing of the page: it keeps the text it had, and is asked again next time.
    if (TRANSIENT_CRAWL_FAILURES.has(fetched.code) && previous?.status === 'indexed') {
      await markSeen(deps, previous, { etag: previous.etag ?? null, lastModified: previous.lastModified ?? null, ...seen }, fetched.reason);
      await followLinks(deps, source, syncId, page, crawl, await storedLinks(stores, previous));
      return 'failed';
    }
    await storeFailedPage(
      deps,
      stores,
      source,
      { id, name: pageName(page.url), url: page.url, page: { etag: null, lastModified: null, ...seen } },
      fetched.reason,
    );
    return 'failed';
  }
  const { changed } = await storeDocument(
    deps,
    stores,
    source,
    {
      id,
      name: pageName(fetched.finalUrl),
      url: fetched.finalUrl,
      contentType: 'text/html',
      bytes: 0,
      page: { etag: fetched.etag, lastModified: fetched.lastModified, ...seen },
    },
    fetched.document,
  );
  await followLinks(deps, source, syncId, page, crawl, fetched.document.links);
  return changed ? 'changed' : 'unchanged';
}

async function followLinks(deps: Deps, source: StoredSource, syncId: string, page: FrontierPage, crawl: Crawl, links: string[]): Promise<void> {
  if (page.depth < crawl.limits.maxDepth)
    await enqueuePages(
      deps,
      source,
      syncId,
      links.map((url) => ({ url, depth: page.depth + 1 })),
      false,
    );
}

async function storedLinks(stores: KnowledgeStores, document: StoredDocument): Promise<string[]> {
  const stored = await stores.blobs.get(`${documentBlobPrefix(document.workspaceId, document.sourceId, document.id)}text.json`);
  return stored ? ((JSON.parse(new TextDecoder().decode(stored)) as ExtractedDocument).links ?? []) : [];
}

/** The `page` message: the page leased, fetched (conditionally), indexed if its text changed, its links queued, then done. */
export async function crawlPage(deps: Deps, source: StoredSource, message: Extract<KnowledgeMessage, { type: 'page' }>): Promise<void> {
  const syncKey = syncKeyOf(source.id, message.syncId);
  const page = await leasePage(deps, syncKey, message.urlKey, deps.now(), PAGE_LEASE_MS);
  if (!page) return;
  const stores = await knowledgeStores(deps);
  try {
    await withCrawl(deps, source, message.syncId, (crawl) => crawlOne(deps, stores, source, message.syncId, page, crawl));
  } catch (error) {
    // Retried by the queue: the next delivery takes the page at once rather than after the lease.
    await releasePage(deps, syncKey, message.urlKey);
    throw error;
  }
  await finishPage(deps, syncKey, message.urlKey);
  const current = await markSyncProgress(deps, source, message.syncId, deps.now());
  if (current) await completeIfDone(deps, stores, current, message.syncId);
}

/** Ends the sync, once, when its start has queued every seed and no page of it is pending (read after this side's own write). */
async function completeIfDone(deps: Deps, stores: KnowledgeStores, source: StoredSource, syncId: string): Promise<void> {
  if (source.seededSyncId !== syncId) return;
  const pending = (await frontierPages(deps, syncKeyOf(source.id, syncId))).some((frontier) => frontier.pending);
  if (!pending && (await claimSyncEnd(deps, source, syncId))) await completeWebsiteSync(deps, stores, source, syncId);
}

/** The end of a sync: pages it did not see are removed everywhere, then the source is counted and reported. */
async function completeWebsiteSync(deps: Deps, stores: KnowledgeStores, source: StoredSource, syncId: string): Promise<void> {
  const documents = await allDocuments(deps, source.id);
  const gone = documents.filter((document) => document.seenSyncId !== syncId);
  for (const document of gone) await removeDocument(deps, stores, document);
  const seen = documents.filter((document) => document.seenSyncId === syncId);
  const changed = seen.filter(
    (document) => document.status === 'indexed' && source.syncStartedAt !== undefined && document.updatedAt >= source.syncStartedAt,
  ).length;
  const failed = seen.filter((document) => document.status === 'failed' || document.error !== undefined).length;
  await finishSync(deps, source, syncId, { changed, removed: gone.length, failed }, seen.length === 0 ? 'No page of the site could be indexed' : undefined);
}
