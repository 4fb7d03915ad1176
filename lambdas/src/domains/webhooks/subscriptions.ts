import { DomainError, newSubscriptionId, randomBase62 } from '@service/shared';
import { cached, recall, remember } from '../../infra/cache/short-cache';
import type { Deps } from '../../infra/deps';
import { checkOutboundUrl, OutboundBlockedError } from '../../infra/net/outbound-guard';
import type { Action } from '../../infra/store/idempotency';
import { sameTickReads } from './same-tick-reads';
import {
  createSubscriptionOrFind,
  deleteSubscriptionItem,
  getSubscriptionItem,
  querySubscriptions,
  disableSubscriptionItem,
  incrementFailureCount,
  resetFailureCount,
  type EventType,
  type StoredSubscription,
} from './subscription-repository';

export type { EventType, StoredSubscription } from './subscription-repository';

export const toSubscriptionResponse = (subscription: StoredSubscription) => ({
  id: subscription.id,
  url: subscription.url,
  events: subscription.events,
  active: subscription.active,
  failure_count: subscription.failureCount,
  disabled_at: subscription.disabledAt ?? null,
  created_at: subscription.createdAt,
});

/** The outbound guard's URL checks (https, no credentials, no blocked IP literal), as the API's validation error. */
export function assertSubscribableUrl(url: string, allowLocal: boolean): void {
  try {
    checkOutboundUrl(url, { allowLocal });
  } catch (error) {
    if (error instanceof OutboundBlockedError) throw new DomainError('VALIDATION_ERROR', error.message, { field: 'url' });
    throw error;
  }
}

export async function createSubscription(
  deps: Deps,
  workspaceId: string,
  input: { url: string; events: EventType[] },
  action: Action = { at: deps.now() },
): Promise<StoredSubscription> {
  const subscription: StoredSubscription = {
    workspaceId,
    id: newSubscriptionId(action.seed),
    url: input.url,
    events: [...new Set(input.events)],
    signingSecret: `whsec_${randomBase62(32)}`,
    active: true,
    failureCount: 0,
    createdAt: action.at.toISOString(),
  };
  return createSubscriptionOrFind(deps, subscription);
}

export async function listSubscriptions(deps: Deps, workspaceId: string): Promise<StoredSubscription[]> {
  return (await querySubscriptions(deps, workspaceId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function deleteSubscription(deps: Deps, workspaceId: string, id: string): Promise<void> {
  remember(deps, keptKey(workspaceId, id), GONE, SUBSCRIPTION_KEPT_MS);
  if (!(await deleteSubscriptionItem(deps, workspaceId, id)))
    throw new DomainError('NOT_FOUND', `No webhook subscription ${id} in this workspace`, { field: 'webhook_id' });
}

export const getSubscription = (deps: Deps, workspaceId: string, id: string): Promise<StoredSubscription | undefined> =>
  getSubscriptionItem(deps, workspaceId, id);

/**
 * How long a container may deliver on the subscription as it last read it. What this container changes (its failure
 * count, disabling, deletion) it sees at once; a change made elsewhere (a deletion through the API, another container's
 * failures) within this bound, as deliveries already in flight would miss it too.
 */
const SUBSCRIPTION_KEPT_MS = 5_000;
const keptKey = (workspaceId: string, id: string) => `webhookSubscription:${workspaceId}:${id}`;

/** Kept for a subscription this container deleted: a write of an attempt that was under way may not bring it back. */
const GONE = 'gone';

/** A subscription's reads of one turn of the event loop as one (a message's first attempts all miss the kept copy at once). */
const readSubscription = sameTickReads((deps, key) => {
  const [workspaceId, id] = key.split('\n') as [string, string];
  return getSubscriptionItem(deps, workspaceId, id);
});

/** The subscription a delivery goes to, read once per SUBSCRIPTION_KEPT_MS per container rather than for every attempt. */
export async function getSubscriptionToDeliver(deps: Deps, workspaceId: string, id: string): Promise<StoredSubscription | undefined> {
  const kept = await cached<StoredSubscription | typeof GONE | undefined>(deps, keptKey(workspaceId, id), SUBSCRIPTION_KEPT_MS, () =>
    readSubscription(deps, `${workspaceId}\n${id}`),
  );
  return kept === GONE ? undefined : kept;
}

/** Keeps the subscription as a write of this container left it (gone when the write found none). */
function keep(
  deps: Deps,
  subscription: Pick<StoredSubscription, 'workspaceId' | 'id'>,
  updated: StoredSubscription | undefined,
): StoredSubscription | undefined {
  const key = keptKey(subscription.workspaceId, subscription.id);
  if (recall(deps, key) !== GONE) remember(deps, key, updated ?? GONE, SUBSCRIPTION_KEPT_MS);
  return updated;
}

/** Consecutive failed deliveries after which a subscription is disabled (spec: 20). */
export const MAX_CONSECUTIVE_FAILURES = 20;

/**
 * Per subscription, a mark each failure counted in this container raises. Concurrent attempts' writes land in any
 * order, so the kept copy may say zero while the stored counter holds a failure that landed after a reset: while a
 * mark is left, every success resets the stored counter.
 */
const failureMarks = new Map<string, number>();

/** A delivery succeeded: the consecutive-failure counter starts again from zero (no write when it is known to be zero). */
export async function recordDeliverySuccess(deps: Deps, workspaceId: string, id: string, delivered: StoredSubscription): Promise<void> {
  const key = keptKey(workspaceId, id);
  const mark = failureMarks.get(key);
  const latest = (await getSubscriptionToDeliver(deps, workspaceId, id)) ?? delivered;
  if (mark === undefined && latest.failureCount === 0) return;
  keep(deps, latest, await resetFailureCount(deps, latest));
  if (failureMarks.get(key) === mark) failureMarks.delete(key);
}

/**
 * A delivery attempt failed: one atomic increment; the attempt that reaches the limit disables the subscription
 * (conditional on it still being active, so it happens once). Says whether deliveries to it may go on.
 */
export async function countFailure(deps: Deps, subscription: StoredSubscription): Promise<'counted' | 'disabled' | 'deleted'> {
  const key = keptKey(subscription.workspaceId, subscription.id);
  failureMarks.set(key, (failureMarks.get(key) ?? 0) + 1);
  const updated = keep(deps, subscription, await incrementFailureCount(deps, subscription));
  if (!updated) return 'deleted';
  if (!updated.active) return 'disabled';
  if (updated.failureCount < MAX_CONSECUTIVE_FAILURES) return 'counted';
  const disabled = await disableSubscriptionItem(deps, subscription, deps.now().toISOString());
  // Lost the condition: another attempt disabled it (or it was deleted); nothing is sent to it from here on either way.
  keep(deps, subscription, disabled ?? { ...updated, active: false });
  return 'disabled';
}
