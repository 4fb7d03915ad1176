import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError, newSubscriptionId, randomBase62, type schemas } from '@service/shared';
import type { Deps } from '../deps';
import { isConditionFailure } from '../store/dynamo';

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

/** Subscriptions must be https; plain http only with the local-testing allowance. */
export function assertSubscribableUrl(url: string, allowLocal: boolean): void {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !(allowLocal && parsed.protocol === 'http:')) {
    throw new ApiError('VALIDATION_ERROR', 'url must use https', { field: 'url' });
  }
  if (parsed.username || parsed.password) throw new ApiError('VALIDATION_ERROR', 'url must not embed credentials', { field: 'url' });
}

export async function createSubscription(deps: Deps, workspaceId: string, input: { url: string; events: EventType[] }): Promise<StoredSubscription> {
  const subscription: StoredSubscription = {
    workspaceId,
    id: newSubscriptionId(),
    url: input.url,
    events: [...new Set(input.events)],
    signingSecret: `whsec_${randomBase62(32)}`,
    active: true,
    failureCount: 0,
    createdAt: deps.now().toISOString(),
  };
  await deps.store.doc.send(
    new PutCommand({ TableName: deps.store.table('webhookSubscriptions'), Item: subscription, ConditionExpression: 'attribute_not_exists(id)' }),
  );
  return subscription;
}

export async function listSubscriptions(deps: Deps, workspaceId: string): Promise<StoredSubscription[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({ TableName: deps.store.table('webhookSubscriptions'), KeyConditionExpression: 'workspaceId = :w', ExpressionAttributeValues: { ':w': workspaceId } }),
  );
  return ((result.Items ?? []) as StoredSubscription[]).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function deleteSubscription(deps: Deps, workspaceId: string, id: string): Promise<void> {
  try {
    await deps.store.doc.send(
      new DeleteCommand({ TableName: deps.store.table('webhookSubscriptions'), Key: { workspaceId, id }, ConditionExpression: 'attribute_exists(id)' }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ApiError('NOT_FOUND', `No webhook subscription ${id} in this workspace`, { field: 'webhook_id' });
    throw error;
  }
}
