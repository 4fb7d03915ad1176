import type { McpKeyScope } from '@service/shared';
import type { StoredApiKey } from '../access/api-keys';
import type { Deps } from '../../infra/deps';
import { putNewItem, queryAll, readItem, updateIf } from '../../infra/store/dynamo';

/** Every store call of the `mcpKeys` table: MCP keys by the hash of the key, a workspace's keys by its index. */

/** An MCP key is stored as an API key is (hash, prefix, last four), with what it may do and who made it. */
export interface StoredMcpKey extends StoredApiKey {
  scopes: McpKeyScope[];
  /** null: every agent of the workspace. */
  agentIds: string[] | null;
  createdBy: string;
}

/** Stores a new key; throws ConditionalCheckFailedException when its hash is taken. */
export async function putNewMcpKey(deps: Deps, key: StoredMcpKey): Promise<void> {
  await putNewItem(deps.store, deps.store.table('mcpKeys'), key, 'keyHash');
}

export async function findMcpKey(deps: Deps, keyHash: string): Promise<StoredMcpKey | undefined> {
  return readItem<StoredMcpKey>(deps.store, deps.store.table('mcpKeys'), { keyHash });
}

/** A workspace's keys, newest first. */
export async function mcpKeysOfWorkspace(deps: Deps, workspaceId: string): Promise<StoredMcpKey[]> {
  return queryAll<StoredMcpKey>(deps.store, {
    TableName: deps.store.table('mcpKeys'),
    IndexName: 'byWorkspace',
    KeyConditionExpression: 'workspaceId = :w',
    ExpressionAttributeValues: { ':w': workspaceId },
    ScanIndexForward: false,
  });
}

/** Marks a live key of the workspace revoked: the key as it is now, or undefined when it was already revoked. */
export async function markMcpKeyRevoked(deps: Deps, keyHash: string, workspaceId: string, at: string): Promise<StoredMcpKey | undefined> {
  return updateIf<StoredMcpKey>(
    deps.store,
    deps.store.table('mcpKeys'),
    { keyHash },
    {
      UpdateExpression: 'SET revokedAt = :at',
      ConditionExpression: 'workspaceId = :w AND attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':at': at, ':w': workspaceId },
    },
  );
}
