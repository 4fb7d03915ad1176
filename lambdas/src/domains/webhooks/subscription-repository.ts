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
  const result = await deps.store.doc.send(
    new QueryCommand({ TableName: table(deps), KeyConditionExpression: 'workspaceId = :w', ExpressionAttributeValues: { ':w': workspaceId } }),
  );
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

type SubscriptionKey = Pick<StoredSubscription, 'workspaceId' | 'id'>;

/** A conditional update of a subscription that still exists; the new item, or undefined when it is gone or the condition failed. */
const updateIfExists = (deps: Deps, subscription: SubscriptionKey, update: Omit<ConditionalUpdate, 'ConditionExpression'> & { ConditionExpression?: string }) =>
  updateIf<StoredSubscription>(
    deps.store,
    table(deps),
    { workspaceId: subscription.workspaceId, id: subscription.id },
    { ConditionExpression: 'attribute_exists(id)', ...update },
  );

/** Sets the consecutive-failure counter back to zero; undefined when the subscription is gone. */
export const resetFailureCount = (deps: Deps, subscription: SubscriptionKey) =>
  updateIfExists(deps, subscription, { UpdateExpression: 'SET failureCount = :zero', ExpressionAttributeValues: { ':zero': 0 } });

/** Adds one to the consecutive-failure counter (atomic); undefined when the subscription is gone. */
export const incrementFailureCount = (deps: Deps, subscription: SubscriptionKey) =>
  updateIfExists(deps, subscription, { UpdateExpression: 'ADD failureCount :one', ExpressionAttributeValues: { ':one': 1 } });

/** Disables an active subscription at `at`; undefined when it is gone or was already disabled. */
export const disableSubscriptionItem = (deps: Deps, subscription: SubscriptionKey, at: string) =>
  updateIfExists(deps, subscription, {
    UpdateExpression: 'SET active = :false, disabledAt = :now',
    ConditionExpression: 'attribute_exists(id) AND active = :true',
    ExpressionAttributeValues: { ':false': false, ':true': true, ':now': at },
  });
