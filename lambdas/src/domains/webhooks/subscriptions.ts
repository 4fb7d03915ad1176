import { DomainError, newSubscriptionId, randomBase62 } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { checkOutboundUrl, OutboundBlockedError } from '../../infra/net/outbound-guard';
import type { Action } from '../../infra/store/idempotency';
import {
  createSubscriptionOrFind,
  deleteSubscriptionItem,
  getSubscriptionItem,
  querySubscriptions,
  updateSubscriptionIfExists as updateIfExists,
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

export async function createSubscription(deps: Deps, workspaceId: string, input: { url: string; events: EventType[] }, action: Action = { at: deps.now() }): Promise<StoredSubscription> {
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
  if (!(await deleteSubscriptionItem(deps, workspaceId, id))) throw new DomainError('NOT_FOUND', `No webhook subscription ${id} in this workspace`, { field: 'webhook_id' });
}

export const getSubscription = (deps: Deps, workspaceId: string, id: string): Promise<StoredSubscription | undefined> => getSubscriptionItem(deps, workspaceId, id);

/** Consecutive failed deliveries after which a subscription is disabled (spec: 20). */
export const MAX_CONSECUTIVE_FAILURES = 20;

/** A delivery succeeded: the consecutive-failure counter starts again from zero. */
export async function resetFailureCount(deps: Deps, subscription: StoredSubscription): Promise<void> {
  await updateIfExists(deps, subscription, { UpdateExpression: 'SET failureCount = :zero', ExpressionAttributeValues: { ':zero': 0 } });
}

/**
 * A delivery attempt failed: one atomic increment; the attempt that reaches the limit disables the subscription
 * (conditional on it still being active, so it happens once). Says whether deliveries to it may go on.
 */
export async function countFailure(deps: Deps, subscription: StoredSubscription): Promise<'counted' | 'disabled' | 'deleted'> {
  const updated = await updateIfExists(deps, subscription, {
    UpdateExpression: 'ADD failureCount :one',
    ExpressionAttributeValues: { ':one': 1 },
  });
  if (!updated) return 'deleted';
  if (!updated.active) return 'disabled';
  if (updated.failureCount < MAX_CONSECUTIVE_FAILURES) return 'counted';
  await updateIfExists(deps, subscription, {
    UpdateExpression: 'SET active = :false, disabledAt = :now',
    ConditionExpression: 'attribute_exists(id) AND active = :true',
    ExpressionAttributeValues: { ':false': false, ':true': true, ':now': deps.now().toISOString() },
  });
  return 'disabled';
}
