import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { readItem, updateIf } from '../../infra/store/dynamo';

/**
 * The people domain's store calls for one-time sign-in secrets: the `signInCodes` table.
 * Single-item conditional writes only; expiry is checked by the callers, in code.
 */

/** A one-time sign-in secret: an e-mailed code (`email#<address>`) or a passkey challenge (`webauthn#<hash>`). */
export interface StoredSignInSecret {
  id: string;
  secretHash: string;
  expiresAt: string;
  expiresAtEpoch: number;
  tries: number;
  usedAt?: string;
  /** A registration challenge belongs to the person registering. */
  userId?: string;
}

const epoch = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/** Stores a new secret under its id, replacing an earlier one (a new code supersedes the last). */
export async function putSignInSecret(deps: Deps, secret: Omit<StoredSignInSecret, 'expiresAtEpoch' | 'tries'>): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({ TableName: deps.store.table('signInCodes'), Item: { ...secret, tries: 0, expiresAtEpoch: epoch(secret.expiresAt) } }),
  );
}

export async function getSignInSecret(deps: Deps, id: string): Promise<StoredSignInSecret | undefined> {
  return readItem<StoredSignInSecret>(deps.store, deps.store.table('signInCodes'), { id });
}

/** Counts a wrong try while fewer than `maxTries` were made: false once the tries are used up. */
export async function countSignInTry(deps: Deps, id: string, secretHash: string, maxTries: number): Promise<boolean> {
  const counted = await updateIf(
    deps.store,
    deps.store.table('signInCodes'),
    { id },
    {
      UpdateExpression: 'ADD tries :one',
      ConditionExpression: 'secretHash = :hash AND tries < :max AND attribute_not_exists(usedAt)',
      ExpressionAttributeValues: { ':one': 1, ':hash': secretHash, ':max': maxTries },
    },
  );
  return counted !== undefined;
}

/** Uses the secret once, if it is still this one, unused, within its tries and unexpired: false otherwise. */
export async function useSignInSecret(deps: Deps, id: string, secretHash: string, maxTries: number, now: Date): Promise<boolean> {
  const used = await updateIf(
    deps.store,
    deps.store.table('signInCodes'),
    { id },
    {
      UpdateExpression: 'SET usedAt = :now',
      ConditionExpression: 'secretHash = :hash AND tries < :max AND attribute_not_exists(usedAt) AND expiresAt > :now',
      ExpressionAttributeValues: { ':hash': secretHash, ':max': maxTries, ':now': now.toISOString() },
    },
  );
  return used !== undefined;
}
