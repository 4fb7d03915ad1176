import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { schemas } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { createOrFind, deleteIf, updateIf, type ConditionalUpdate } from '../../infra/store/dynamo';

/** The webhooks domain's subscription repository: every store call of the webhookSubscriptions table. */
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

const table = (deps: Deps) => deps.store.table('webhookSubscriptions');

/** Stores the subscription, or answers the one stored under its id (a retried create). */
export const createSubscriptionOrFind = async (deps: Deps, subscription: StoredSubscription): Promise<StoredSubscription> =>
  (await createOrFind(deps.store, 'webhookSubscriptions', subscription, { workspaceId: subscription.workspaceId, id: subscription.id })).item;

export async function querySubscriptions(deps: Deps, workspaceId: string): Promise<StoredSubscription[]> {
  const result = await deps.store.doc.send(new QueryCommand({ TableName: table(deps), KeyConditionExpression: 'workspaceId = :w', ExpressionAttributeValues: { ':w': workspaceId } }));
  return (result.Items ?? []) as StoredSubscription[];
}

/** Deletes the subscription; false when there was none. */
export async function deleteSubscriptionItem(deps: Deps, workspaceId: string, id: string): Promise<boolean> {
  return (await deleteIf(deps.store, table(deps), { workspaceId, id }, { ConditionExpression: 'attribute_exists(id)' })) !== undefined;
}

export async function getSubscriptionItem(deps: Deps, workspaceId: string, id: string): Promise<StoredSubscription | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: table(deps), Key: { workspaceId, id }, ConsistentRead: true }));
  return result.Item as StoredSubscription | undefined;
}

/** A conditional update (by default: the subscription exists); the new item, or undefined when it is gone or the condition failed. */
export const updateSubscriptionIfExists = (
  deps: Deps,
  subscription: Pick<StoredSubscription, 'workspaceId' | 'id'>,
  update: Omit<ConditionalUpdate, 'ConditionExpression'> & { ConditionExpression?: string },
): Promise<StoredSubscription | undefined> =>
  updateIf<StoredSubscription>(deps.store, table(deps), { workspaceId: subscription.workspaceId, id: subscription.id }, { ConditionExpression: 'attribute_exists(id)', ...update });
