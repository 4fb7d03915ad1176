import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putIf, updateIf } from '../../infra/store/dynamo';

/**
 * The access domain's repository: every store call of the `workspaces`, `apiKeys` and `rateLimits` tables; a failed
 * condition comes back as a value (undefined or false), never as a catch block.
 */
export type Plan = 'partner' | 'starter';

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
  /** Monthly token allowance of the plan. */
  tokenLimit: number;
  createdAt: string;
}

export interface StoredApiKey {
  keyHash: string;
  id: string;
  workspaceId: string;
  name: string;
  prefix: string;
  last4: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

export async function getWorkspaceItem(deps: Deps, id: string): Promise<Workspace | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('workspaces'), Key: { id } }));
  return result.Item as Workspace | undefined;
}

/** Stores the workspace unless one exists under its id. */
export async function putWorkspaceIfAbsent(deps: Deps, workspace: Workspace): Promise<void> {
  await putIf(deps.store, deps.store.table('workspaces'), workspace, { ConditionExpression: 'attribute_not_exists(id)' });
}

/** Stores a new key (by its hash); throws if the hash is taken. */
export async function putNewApiKey(deps: Deps, key: StoredApiKey): Promise<void> {
  await deps.store.doc.send(new PutCommand({ TableName: deps.store.table('apiKeys'), Item: key, ConditionExpression: 'attribute_not_exists(keyHash)' }));
}

/** The key stored under its hash, if any. */
export async function getApiKeyItem(deps: Deps, keyHash: string): Promise<StoredApiKey | undefined> {
  return (await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('apiKeys'), Key: { keyHash } }))).Item as StoredApiKey | undefined;
}

/** Updates a key item under a condition (the whole new item, or undefined when the condition failed). */
export const updateApiKeyItem = <T extends StoredApiKey>(deps: Deps, keyHash: string, update: string, condition: string, values: Record<string, unknown>) =>
  updateIf<T>(deps.store, deps.store.table('apiKeys'), { keyHash }, { UpdateExpression: update, ConditionExpression: condition, ExpressionAttributeValues: values });

/** A workspace's keys, newest first (the `byWorkspace` index). */
export async function queryApiKeys(deps: Deps, workspaceId: string): Promise<StoredApiKey[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('apiKeys'),
      IndexName: 'byWorkspace',
      KeyConditionExpression: 'workspaceId = :w',
      ExpressionAttributeValues: { ':w': workspaceId },
      ScanIndexForward: false,
    }),
  );
  return (result.Items ?? []) as StoredApiKey[];
}

/** The `rateLimits` items under these buckets, by bucket (one consistent round trip). */
export async function getRateItems<T>(deps: Deps, buckets: string[]): Promise<Map<string, T>> {
  const table = deps.store.table('rateLimits');
  const result = await deps.store.doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: buckets.map((bucket) => ({ bucket })), ConsistentRead: true } } }));
  return new Map(((result.Responses?.[table] ?? []) as (T & { bucket: string })[]).map((item) => [item.bucket, item]));
}

/** Updates a `rateLimits` item under a condition (the whole new item, or undefined when the condition failed). */
export const updateRateItem = <T>(deps: Deps, bucket: string, update: string, condition: string, values: Record<string, unknown>) =>
  updateIf<T>(deps.store, deps.store.table('rateLimits'), { bucket }, { UpdateExpression: update, ConditionExpression: condition, ExpressionAttributeValues: values });
