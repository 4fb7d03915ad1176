import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putIf, putNewItem, queryAll, readItem, setOnce, updateIf } from '../../infra/store/dynamo';

/** Every store call of the connections domain: clients, connections (grants), OAuth secrets by hash, calls. */

export interface StoredClient {
  clientId: string;
  clientName: string;
  clientUri: string | null;
  redirectUris: string[];
  /** SHA-256 of the registration access token (RFC 7592 read of registration_client_uri). */
  registrationTokenHash: string;
  createdAt: string;
}

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

export type StoredSecret =
  | { tokenHash: string; kind: 'code'; expiresAt: string; expiresAtEpoch: number; usedAt?: string; clientId: string; redirectUri: string; codeChallenge: string; approved: ApprovedConnection }
  | { tokenHash: string; kind: 'refresh'; expiresAt: string; expiresAtEpoch: number; usedAt?: string; clientId: string; connectionId: string; workspaceId: string; userId: string; scopes: string[] };

export interface StoredCall {
  connectionId: string;
  sk: string;
  at: string;
  tool: string;
  agentId: string | null;
  runId: string | null;
  outcome: string;
  expiresAtEpoch: number;
}

export async function putClient(deps: Deps, client: StoredClient): Promise<void> {
  await putNewItem(deps.store, deps.store.table('oauthClients'), client, 'clientId');
}

export async function findClient(deps: Deps, clientId: string): Promise<StoredClient | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('oauthClients'), Key: { clientId } }));
  return result.Item as StoredClient | undefined;
}

export async function putSecret(deps: Deps, secret: StoredSecret): Promise<void> {
  await putNewItem(deps.store, deps.store.table('oauthTokens'), secret, 'tokenHash');
}

export async function findSecret(deps: Deps, tokenHash: string): Promise<StoredSecret | undefined> {
  return readItem<StoredSecret>(deps.store, deps.store.table('oauthTokens'), { tokenHash });
}

/** Marks a single-use secret (code, refresh token) used: false when it already was (a replay). */
export async function useSecretOnce(deps: Deps, tokenHash: string, at: string): Promise<boolean> {
  return setOnce(deps.store, deps.store.table('oauthTokens'), { tokenHash }, 'usedAt', at);
}

/** Adds a live access token to its connection and drops the ones named in `expired`. */
export async function addAccessToken(deps: Deps, connectionId: string, tokenHash: string, token: { expiresAt: string; scopes: string[] }, expired: string[]): Promise<void> {
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
  await updateIf(deps.store, deps.store.table('connections'), { id: connectionId }, {
    UpdateExpression: 'REMOVE accessTokens.#hash',
    ConditionExpression: 'attribute_exists(id)',
    ExpressionAttributeNames: { '#hash': tokenHash },
  });
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
  const done = await updateIf(deps.store, deps.store.table('connections'), { id }, {
    UpdateExpression: 'SET #status = :to, endedAt = :at, endedReason = :reason',
    ConditionExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':to': status, ':at': at, ':reason': reason, ':active': 'active' },
  });
  return done !== undefined;
}

/** Keeps a call (one write per call: the counts and the last use are read from these records when listed). */
export async function recordCall(deps: Deps, call: StoredCall): Promise<void> {
  await deps.store.doc.send(new PutCommand({ TableName: deps.store.table('connectionCalls'), Item: call }));
}

/** How many calls a connection made (within the calls' retention) and when it was last used. */
export async function callUse(deps: Deps, connectionId: string): Promise<{ calls: number; lastUsedAt: string | null }> {
  const [count, newest] = await Promise.all([
    deps.store.doc.send(
      new QueryCommand({ TableName: deps.store.table('connectionCalls'), KeyConditionExpression: 'connectionId = :c', ExpressionAttributeValues: { ':c': connectionId }, Select: 'COUNT' }),
    ),
    recentCalls(deps, connectionId, 1),
  ]);
  return { calls: count.Count ?? 0, lastUsedAt: newest[0]?.at ?? null };
}

export async function recentCalls(deps: Deps, connectionId: string, limit: number): Promise<StoredCall[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('connectionCalls'),
      KeyConditionExpression: 'connectionId = :c',
      ExpressionAttributeValues: { ':c': connectionId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as StoredCall[];
}
