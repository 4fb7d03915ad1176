import type { Deps } from '../../infra/deps';
import { deleteIf, putIf, queryAll, updateIf } from '../../infra/store/dynamo';

/**
 * The knowledge domain's crawl-frontier repository (knowledgeCrawl): one item per URL of one website sync, put
 * conditionally so a URL is crawled once per sync. `pending` is set until its page is done; `leaseUntil` marks a
 * consumer working on it, so a duplicate message or a sweep never runs the page twice at once.
 */
export interface FrontierPage {
  syncKey: string;
  urlKey: string;
  url: string;
  depth: number;
  pending?: true;
  leaseUntil?: string;
  queuedAt: string;
}

const table = (deps: Deps) => deps.store.table('knowledgeCrawl');
export const syncKeyOf = (sourceId: string, syncId: string) => `${sourceId}#${syncId}`;

/** Adds the URL to the frontier: false when this sync has it already. */
export const addToFrontier = (deps: Deps, page: FrontierPage) => putIf(deps.store, table(deps), page, { ConditionExpression: 'attribute_not_exists(urlKey)' });

/** Takes the page for `leaseMs`: the page, or undefined when it is done or someone else holds it. */
export const leasePage = (deps: Deps, syncKey: string, urlKey: string, now: Date, leaseMs: number) =>
  updateIf<FrontierPage>(
    deps.store,
    table(deps),
    { syncKey, urlKey },
    {
      UpdateExpression: 'SET leaseUntil = :until',
      ConditionExpression: 'attribute_exists(pending) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
      ExpressionAttributeValues: { ':until': new Date(now.getTime() + leaseMs).toISOString(), ':now': now.toISOString() },
    },
  );

export const finishPage = (deps: Deps, syncKey: string, urlKey: string) =>
  updateIf<FrontierPage>(
    deps.store,
    table(deps),
    { syncKey, urlKey },
    { UpdateExpression: 'REMOVE pending, leaseUntil', ConditionExpression: 'attribute_exists(urlKey)' },
  );

/** Gives the page back (its work failed and is retried): the next delivery of its message may lease it at once. */
export const releasePage = (deps: Deps, syncKey: string, urlKey: string) =>
  updateIf<FrontierPage>(
    deps.store,
    table(deps),
    { syncKey, urlKey },
    { UpdateExpression: 'REMOVE leaseUntil', ConditionExpression: 'attribute_exists(pending)' },
  );

/** Every page of the sync (a site is bounded by the crawl's page limit). */
export const frontierPages = (deps: Deps, syncKey: string) =>
  queryAll<FrontierPage>(deps.store, {
    TableName: table(deps),
    KeyConditionExpression: 'syncKey = :k',
    ExpressionAttributeValues: { ':k': syncKey },
    ConsistentRead: true,
  });

export const deleteFrontierPage = (deps: Deps, page: Pick<FrontierPage, 'syncKey' | 'urlKey'>) =>
  deleteIf(deps.store, table(deps), { syncKey: page.syncKey, urlKey: page.urlKey }, { ConditionExpression: 'attribute_exists(urlKey)' });
