import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError, newSubscriptionId, randomBase62, type schemas } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { checkOutboundUrl, OutboundBlockedError } from '../../infra/net/outbound-guard';
import type { Action } from '../../infra/store/idempotency';
import { createOrFind, ifConditionHolds } from '../../infra/store/dynamo';

export type EventType = (typeof schemas.EVENT_TYPES)[number];

export interface StoredSubscription {
  workspaceId: string;
  id: string;
  url: string;
  events: EventType[];
  /** Used to sign deliveries; returned once at creation, never listed. */
  signingSecret: string;
  active: boolean;
  failureCount: number;
  disabledAt?: string;
  createdAt: string;
}

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
  return (await createOrFind(deps.store, 'webhookSubscriptions', subscription, { workspaceId, id: subscription.id })).item;
}

export async function listSubscriptions(deps: Deps, workspaceId: string): Promise<StoredSubscription[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({ TableName: deps.store.table('webhookSubscriptions'), KeyConditionExpression: 'workspaceId = :w', ExpressionAttributeValues: { ':w': workspaceId } }),
  );
  return ((result.Items ?? []) as StoredSubscription[]).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function deleteSubscription(deps: Deps, workspaceId: string, id: string): Promise<void> {
  const deleted = await ifConditionHolds(
    deps.store.doc.send(new DeleteCommand({ TableName: deps.store.table('webhookSubscriptions'), Key: { workspaceId, id }, ConditionExpression: 'attribute_exists(id)' })),
  );
  if (!deleted) throw new DomainError('NOT_FOUND', `No webhook subscription ${id} in this workspace`, { field: 'webhook_id' });
}

export async function getSubscription(deps: Deps, workspaceId: string, id: string): Promise<StoredSubscription | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('webhookSubscriptions'), Key: { workspaceId, id }, ConsistentRead: true }));
  return result.Item as StoredSubscription | undefined;
}

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
    ReturnValues: 'ALL_NEW',
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

/** A conditional update; undefined when the subscription is gone or the condition failed, else the item (with ReturnValues). */
async function updateIfExists(
  deps: Deps,
  subscription: StoredSubscription,
  update: { UpdateExpression: string; ExpressionAttributeValues: Record<string, unknown>; ConditionExpression?: string; ReturnValues?: 'ALL_NEW' },
): Promise<StoredSubscription | undefined> {
  const result = await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('webhookSubscriptions'),
        Key: { workspaceId: subscription.workspaceId, id: subscription.id },
        ConditionExpression: 'attribute_exists(id)',
        ...update,
      }),
    ),
  );
  return result?.Attributes as StoredSubscription | undefined;
}
