import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { deleteIf, putIf, readItem, updateIf } from '../../infra/store/dynamo';

/**
 * The people domain's store calls for passkeys: the `passkeys` table.
 * Single-item conditional writes only; expiry is checked by the callers, in code.
 */

export interface StoredPasskey {
  credentialId: string;
  userId: string;
  name: string;
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: string;
  lastUsedAt?: string;
}

export async function putPasskey(deps: Deps, passkey: StoredPasskey): Promise<boolean> {
  return putIf(deps.store, deps.store.table('passkeys'), passkey, { ConditionExpression: 'attribute_not_exists(credentialId)' });
}

export async function getPasskey(deps: Deps, credentialId: string): Promise<StoredPasskey | undefined> {
  return readItem<StoredPasskey>(deps.store, deps.store.table('passkeys'), { credentialId });
}

export async function passkeysOfUser(deps: Deps, userId: string): Promise<StoredPasskey[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('passkeys'),
      IndexName: 'byUser',
      KeyConditionExpression: 'userId = :u',
      ExpressionAttributeValues: { ':u': userId },
    }),
  );
  return (result.Items ?? []) as StoredPasskey[];
}

/** Records a sign-in with the passkey: its new signature counter, only if it grew (or both are 0, as many authenticators keep). */
export async function recordPasskeyUse(deps: Deps, credentialId: string, counter: number, at: string): Promise<boolean> {
  const recorded = await updateIf(
    deps.store,
    deps.store.table('passkeys'),
    { credentialId },
    {
      UpdateExpression: 'SET #counter = :counter, lastUsedAt = :at',
      ConditionExpression: `attribute_exists(credentialId) AND #counter ${counter === 0 ? '=' : '<'} :counter`,
      ExpressionAttributeNames: { '#counter': 'counter' },
      ExpressionAttributeValues: { ':counter': counter, ':at': at },
    },
  );
  return recorded !== undefined;
}

export async function deletePasskeyOfUser(deps: Deps, credentialId: string, userId: string): Promise<boolean> {
  const deleted = await deleteIf(
    deps.store,
    deps.store.table('passkeys'),
    { credentialId },
    { ConditionExpression: 'userId = :u', ExpressionAttributeValues: { ':u': userId } },
  );
  return deleted !== undefined;
}
