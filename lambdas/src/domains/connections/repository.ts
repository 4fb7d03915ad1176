import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { ifConditionHolds } from '../../infra/store/dynamo';

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
  lastUsedAt?: string;
  calls: number;
  status: ConnectionStatus;
  endedAt?: string;
  endedReason?: string;
}

/** What the person approved, carried by the authorization code until it is exchanged. */
export type ApprovedConnection = Omit<StoredConnection, 'createdAt' | 'calls' | 'status' | 'lastUsedAt' | 'endedAt' | 'endedReason'>;

export type StoredSecret =
  | { tokenHash: string; kind: 'code'; expiresAt: string; expiresAtEpoch: number; usedAt?: string; clientId: string; redirectUri: string; codeChallenge: string; approved: ApprovedConnection }
  | { tokenHash: string; kind: 'access' | 'refresh'; expiresAt: string; expiresAtEpoch: number; usedAt?: string; clientId: string; connectionId: string; workspaceId: string; userId: string; scopes: string[] };

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
  await deps.store.doc.send(new PutCommand({ TableName: deps.store.table('oauthClients'), Item: client, ConditionExpression: 'attribute_not_exists(clientId)' }));
}

export async function findClient(deps: Deps, clientId: string): Promise<StoredClient | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('oauthClients'), Key: { clientId } }));
  return result.Item as StoredClient | undefined;
}

export async function putSecret(deps: Deps, secret: StoredSecret): Promise<void> {
  await deps.store.doc.send(new PutCommand({ TableName: deps.store.table('oauthTokens'), Item: secret, ConditionExpression: 'attribute_not_exists(tokenHash)' }));
}

export async function findSecret(deps: Deps, tokenHash: string): Promise<StoredSecret | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('oauthTokens'), Key: { tokenHash }, ConsistentRead: true }));
  return result.Item as StoredSecret | undefined;
}

/** Marks a single-use secret (code, refresh token) used: false when it already was (a replay). */
export async function useSecretOnce(deps: Deps, tokenHash: string, at: string): Promise<boolean> {
  const done = await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('oauthTokens'),
        Key: { tokenHash },
        UpdateExpression: 'SET usedAt = :at',
        ConditionExpression: 'attribute_exists(tokenHash) AND attribute_not_exists(usedAt)',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
  return done !== undefined;
}

/** Ends an access token early (revocation): it expires now. */
export async function expireSecret(deps: Deps, tokenHash: string, at: string): Promise<void> {
  await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('oauthTokens'),
        Key: { tokenHash },
        UpdateExpression: 'SET expiresAt = :at, usedAt = if_not_exists(usedAt, :at)',
        ConditionExpression: 'attribute_exists(tokenHash)',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
}

export async function putConnection(deps: Deps, connection: StoredConnection): Promise<boolean> {
  const put = await ifConditionHolds(
    deps.store.doc.send(new PutCommand({ TableName: deps.store.table('connections'), Item: connection, ConditionExpression: 'attribute_not_exists(id)' })),
  );
  return put !== undefined;
}

export async function findConnection(deps: Deps, id: string): Promise<StoredConnection | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('connections'), Key: { id }, ConsistentRead: true }));
  return result.Item as StoredConnection | undefined;
}

export async function connectionsOfWorkspace(deps: Deps, workspaceId: string): Promise<StoredConnection[]> {
  const items: StoredConnection[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.table('connections'),
        IndexName: 'byWorkspace',
        KeyConditionExpression: 'workspaceId = :w',
        ExpressionAttributeValues: { ':w': workspaceId },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((page.Items ?? []) as StoredConnection[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Ends an active connection; false when it was no longer active. */
export async function endConnection(deps: Deps, id: string, status: Exclude<ConnectionStatus, 'active'>, reason: string, at: string): Promise<boolean> {
  const done = await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('connections'),
        Key: { id },
        UpdateExpression: 'SET #status = :to, endedAt = :at, endedReason = :reason',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':to': status, ':at': at, ':reason': reason, ':active': 'active' },
      }),
    ),
  );
  return done !== undefined;
}

/** Counts one call and its time on the connection, and keeps the call itself among the recent ones. */
export async function recordCall(deps: Deps, call: StoredCall): Promise<void> {
  await Promise.all([
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('connections'),
        Key: { id: call.connectionId },
        UpdateExpression: 'ADD calls :one SET lastUsedAt = :at',
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeValues: { ':one': 1, ':at': call.at },
      }),
    ),
    deps.store.doc.send(new PutCommand({ TableName: deps.store.table('connectionCalls'), Item: call })),
  ]);
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
