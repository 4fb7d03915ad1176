import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { updateIf } from '../../infra/store/dynamo';

/**
 * The access domain's API-key repository: every store call of the `apiKeys` table; a failed condition comes back as a
 * value (undefined), never as a catch block.
 */
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
  updateIf<T>(
    deps.store,
    deps.store.table('apiKeys'),
    { keyHash },
    { UpdateExpression: update, ConditionExpression: condition, ExpressionAttributeValues: values },
  );

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
