import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putIf, queryAll, readItem, updateIf } from '../../infra/store/dynamo';

/**
 * Every store call of the `connections` table: connections (OAuth grants) by id, a workspace's by its index, and the
 * live access-token hashes kept on each.
 */

export type ConnectionStatus = 'active' | 'withdrawn' | 'revoked' | 'replaced';

export interface StoredConnection {
  id: string;
  clientId: string;
  clientName: string;
  clientUri: string | null;
  clientDomainVerified: boolean;
  userId: string;
  userEmail: string;
  workspaceId: string;
  scopes: string[];
  /** null: every agent of the workspace. */
  agentIds: string[] | null;
  resource: string;
  createdAt: string;
  status: ConnectionStatus;
  endedAt?: string;
  endedReason?: string;
  /**
   * The live access tokens, by SHA-256 hash of their secret: kept on the connection so that one consistent read
   * answers both "is this token live" and "is the connection still active" (a withdrawal takes effect at once).
   */
  accessTokens?: Record<string, { expiresAt: string; scopes: string[] }>;
}

/** What the person approved, carried by the authorization code until it is exchanged. */
export type ApprovedConnection = Omit<StoredConnection, 'createdAt' | 'status' | 'endedAt' | 'endedReason' | 'accessTokens'>;

/** Adds a live access token to its connection and drops the ones named in `expired`. */
export async function addAccessToken(
  deps: Deps,
  connectionId: string,
  tokenHash: string,
  token: { expiresAt: string; scopes: string[] },
  expired: string[],
): Promise<void> {
  const names: Record<string, string> = { '#new': tokenHash };
  expired.forEach((hash, index) => (names[`#old${index}`] = hash));
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.table('connections'),
      Key: { id: connectionId },
      UpdateExpression: `SET accessTokens.#new = :token${expired.length ? ` REMOVE ${expired.map((_, index) => `accessTokens.#old${index}`).join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':token': token },
    }),
  );
}

/** Ends one access token early (revocation). */
export async function removeAccessToken(deps: Deps, connectionId: string, tokenHash: string): Promise<void> {
  await updateIf(
    deps.store,
    deps.store.table('connections'),
    { id: connectionId },
    {
      UpdateExpression: 'REMOVE accessTokens.#hash',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeNames: { '#hash': tokenHash },
    },
  );
}

export async function putConnection(deps: Deps, connection: StoredConnection): Promise<boolean> {
  return putIf(deps.store, deps.store.table('connections'), connection, { ConditionExpression: 'attribute_not_exists(id)' });
}

export async function findConnection(deps: Deps, id: string): Promise<StoredConnection | undefined> {
  return readItem<StoredConnection>(deps.store, deps.store.table('connections'), { id });
}

export async function connectionsOfWorkspace(deps: Deps, workspaceId: string): Promise<StoredConnection[]> {
  return queryAll<StoredConnection>(deps.store, {
    TableName: deps.store.table('connections'),
    IndexName: 'byWorkspace',
    KeyConditionExpression: 'workspaceId = :w',
    ExpressionAttributeValues: { ':w': workspaceId },
    ScanIndexForward: false,
  });
}

/** Ends an active connection; false when it was no longer active. */
export async function endConnection(deps: Deps, id: string, status: Exclude<ConnectionStatus, 'active'>, reason: string, at: string): Promise<boolean> {
  const done = await updateIf(
    deps.store,
    deps.store.table('connections'),
    { id },
    {
      UpdateExpression: 'SET #status = :to, endedAt = :at, endedReason = :reason',
      ConditionExpression: '#status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':to': status, ':at': at, ':reason': reason, ':active': 'active' },
    },
  );
  return done !== undefined;
}
