import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putNewItem, queryAll, readItem, updateIf } from '../../infra/store/dynamo';
import { setDisplayName } from './user-repository';

/**
 * The people domain's store calls for sessions: the `sessions` table.
 * Single-item conditional writes only; expiry is checked by the callers, in code.
 */

export interface StoredSession {
  sessionHash: string;
  userId: string;
  email: string;
  displayName: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAtEpoch: number;
}

export async function putSession(deps: Deps, session: StoredSession): Promise<void> {
  await putNewItem(deps.store, deps.store.table('sessions'), session, 'sessionHash');
}

export async function getSession(deps: Deps, sessionHash: string): Promise<StoredSession | undefined> {
  return readItem<StoredSession>(deps.store, deps.store.table('sessions'), { sessionHash });
}

export async function touchSession(deps: Deps, sessionHash: string, at: string): Promise<void> {
  await updateIf(
    deps.store,
    deps.store.table('sessions'),
    { sessionHash },
    {
      UpdateExpression: 'SET lastSeenAt = :at',
      ConditionExpression: 'attribute_exists(sessionHash)',
      ExpressionAttributeValues: { ':at': at },
    },
  );
}

export async function deleteSession(deps: Deps, sessionHash: string): Promise<void> {
  await deps.store.doc.send(new DeleteCommand({ TableName: deps.store.table('sessions'), Key: { sessionHash } }));
}

export async function sessionHashesOfUser(deps: Deps, userId: string): Promise<string[]> {
  const items = await queryAll<{ sessionHash: string }>(deps.store, {
    TableName: deps.store.table('sessions'),
    IndexName: 'byUser',
    KeyConditionExpression: 'userId = :u',
    ExpressionAttributeValues: { ':u': userId },
    ProjectionExpression: 'sessionHash',
  });
  return items.map((item) => item.sessionHash);
}

/** The copies of a person's display name in their sessions follow a change; a gone session stays gone. */
export async function copyDisplayNameToSessions(deps: Deps, userId: string, displayName: string): Promise<void> {
  const sessionHashes = await sessionHashesOfUser(deps, userId);
  await Promise.all(
    sessionHashes.map((sessionHash) => updateIf(deps.store, deps.store.table('sessions'), { sessionHash }, setDisplayName(displayName, 'sessionHash'))),
  );
}
