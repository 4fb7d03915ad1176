import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { deleteIf, putIf, putNewItem, queryAll, readItem, updateIf } from '../../infra/store/dynamo';

/**
 * Every store call of the people domain: users (and the e-mail items that keep an address to one user),
 * memberships (and each workspace's owner count), invitations, one-time sign-in secrets, sessions and passkeys.
 * Single-item conditional writes only; expiry is checked by the callers, in code.
 */

export interface StoredUser {
  id: string;
  email: string;
  displayName: string;
  createdAt: string;
}

export interface StoredMembership {
  workspaceId: string;
  userId: string;
  role: string;
  workspaceName: string;
  email: string;
  displayName: string;
  joinedAt: string;
}

export interface StoredInvitation {
  tokenHash: string;
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: string;
  createdAt: string;
  expiresAt: string;
  expiresAtEpoch: number;
  acceptedAt?: string;
}

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

export interface StoredSession {
  sessionHash: string;
  userId: string;
  email: string;
  displayName: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAtEpoch: number;
}

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

const OWNER_COUNT_KEY = '#owners';
const epoch = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

// Users

const emailItemId = (email: string) => `email#${email}`;

export async function getUser(deps: Deps, userId: string): Promise<StoredUser | undefined> {
  return readItem<StoredUser>(deps.store, deps.store.table('users'), { id: userId });
}

export async function userIdOfEmail(deps: Deps, email: string): Promise<string | undefined> {
  return (await readItem<{ userId: string }>(deps.store, deps.store.table('users'), { id: emailItemId(email) }))?.userId;
}

/** Claims the address for `user` (a conditional put on the e-mail item), then writes the user: false when taken. */
export async function putUserIfEmailFree(deps: Deps, user: StoredUser): Promise<boolean> {
  const claimed = await putIf(deps.store, deps.store.table('users'), { id: emailItemId(user.email), userId: user.id }, { ConditionExpression: 'attribute_not_exists(id)' });
  if (!claimed) return false;
  await putNewItem(deps.store, deps.store.table('users'), user, 'id');
  return true;
}

const setDisplayName = (displayName: string, keyAttribute: string) => ({
  UpdateExpression: 'SET displayName = :name',
  ConditionExpression: 'attribute_exists(#k)',
  ExpressionAttributeNames: { '#k': keyAttribute },
  ExpressionAttributeValues: { ':name': displayName },
});

/** Sets the display name of an existing user: the updated user, or undefined when there is none. */
export const setUserDisplayName = (deps: Deps, userId: string, displayName: string): Promise<StoredUser | undefined> =>
  updateIf<StoredUser>(deps.store, deps.store.table('users'), { id: userId }, setDisplayName(displayName, 'id'));

/** The copies of a person's display name beside their memberships and sessions follow a change; a gone item stays gone. */
export async function copyDisplayName(deps: Deps, userId: string, displayName: string): Promise<void> {
  const [memberships, sessionHashes] = await Promise.all([membershipsByUser(deps, userId), sessionHashesOfUser(deps, userId)]);
  await Promise.all([
    ...memberships.map(({ workspaceId }) => updateIf(deps.store, deps.store.table('memberships'), { workspaceId, userId }, setDisplayName(displayName, 'userId'))),
    ...sessionHashes.map((sessionHash) => updateIf(deps.store, deps.store.table('sessions'), { sessionHash }, setDisplayName(displayName, 'sessionHash'))),
  ]);
}

// Memberships

export async function getMembership(deps: Deps, workspaceId: string, userId: string): Promise<StoredMembership | undefined> {
  return readItem<StoredMembership>(deps.store, deps.store.table('memberships'), { workspaceId, userId });
}

export async function membershipsOfWorkspace(deps: Deps, workspaceId: string): Promise<StoredMembership[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('memberships'),
      KeyConditionExpression: 'workspaceId = :w AND begins_with(userId, :usr)',
      ExpressionAttributeValues: { ':w': workspaceId, ':usr': 'usr_' },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []) as StoredMembership[];
}

export async function membershipsByUser(deps: Deps, userId: string): Promise<StoredMembership[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({ TableName: deps.store.table('memberships'), IndexName: 'byUser', KeyConditionExpression: 'userId = :u', ExpressionAttributeValues: { ':u': userId } }),
  );
  return (result.Items ?? []) as StoredMembership[];
}

/** Adds the membership unless the person already is a member: true when added. */
export async function putMembershipIfAbsent(deps: Deps, membership: StoredMembership): Promise<boolean> {
  return putIf(deps.store, deps.store.table('memberships'), membership, { ConditionExpression: 'attribute_not_exists(userId)' });
}

/** Sets the role of an existing member whose role is still `expectedRole`: the updated membership, or undefined. */
export async function setMembershipRole(deps: Deps, workspaceId: string, userId: string, expectedRole: string, role: string): Promise<StoredMembership | undefined> {
  return updateIf<StoredMembership>(deps.store, deps.store.table('memberships'), { workspaceId, userId }, {
    UpdateExpression: 'SET #role = :role',
    ConditionExpression: 'attribute_exists(userId) AND #role = :expected',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':role': role, ':expected': expectedRole },
  });
}

/** Deletes a membership whose role is still `expectedRole`: false when it changed or is gone. */
export async function deleteMembership(deps: Deps, workspaceId: string, userId: string, expectedRole: string): Promise<boolean> {
  const deleted = await deleteIf(deps.store, deps.store.table('memberships'), { workspaceId, userId }, {
    ConditionExpression: '#role = :expected',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':expected': expectedRole },
  });
  return deleted !== undefined;
}

/**
 * Moves the workspace's owner count by `delta`; a decrement applies only while more than one owner remains (the
 * single item every owner change passes through, so two concurrent demotions cannot both succeed). False when refused.
 */
export async function changeOwnerCount(deps: Deps, workspaceId: string, delta: 1 | -1): Promise<boolean> {
  const changed = await updateIf(deps.store, deps.store.table('memberships'), { workspaceId, userId: OWNER_COUNT_KEY }, {
    UpdateExpression: 'ADD owners :delta',
    ...(delta < 0 ? { ConditionExpression: 'owners > :one', ExpressionAttributeValues: { ':delta': delta, ':one': 1 } } : { ExpressionAttributeValues: { ':delta': delta } }),
  });
  return changed !== undefined;
}

// Invitations

export async function putInvitation(deps: Deps, invitation: StoredInvitation): Promise<void> {
  await putNewItem(deps.store, deps.store.table('invitations'), invitation, 'tokenHash');
}

export async function getInvitation(deps: Deps, tokenHash: string): Promise<StoredInvitation | undefined> {
  return readItem<StoredInvitation>(deps.store, deps.store.table('invitations'), { tokenHash });
}

export async function invitationsOf(deps: Deps, key: { workspaceId: string } | { email: string }): Promise<StoredInvitation[]> {
  const [index, name, value] = 'workspaceId' in key ? ['byWorkspace', 'workspaceId', key.workspaceId] : ['byEmail', 'email', key.email];
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('invitations'),
      IndexName: index,
      KeyConditionExpression: '#k = :v',
      ExpressionAttributeNames: { '#k': name },
      ExpressionAttributeValues: { ':v': value },
      ScanIndexForward: false,
    }),
  );
  return (result.Items ?? []) as StoredInvitation[];
}

/** Marks an invitation accepted once: false when it already was. */
export async function markInvitationAccepted(deps: Deps, tokenHash: string, at: string): Promise<boolean> {
  const accepted = await updateIf(deps.store, deps.store.table('invitations'), { tokenHash }, {
    UpdateExpression: 'SET acceptedAt = :at',
    ConditionExpression: 'attribute_exists(tokenHash) AND attribute_not_exists(acceptedAt)',
    ExpressionAttributeValues: { ':at': at },
  });
  return accepted !== undefined;
}

/** Deletes an invitation not yet accepted: false when it was accepted meanwhile or is gone. */
export async function deletePendingInvitation(deps: Deps, tokenHash: string): Promise<boolean> {
  const pending = { ConditionExpression: 'attribute_exists(tokenHash) AND attribute_not_exists(acceptedAt)' };
  return (await deleteIf(deps.store, deps.store.table('invitations'), { tokenHash }, pending)) !== undefined;
}

// One-time sign-in secrets

/** Stores a new secret under its id, replacing an earlier one (a new code supersedes the last). */
export async function putSignInSecret(deps: Deps, secret: Omit<StoredSignInSecret, 'expiresAtEpoch' | 'tries'>): Promise<void> {
  await deps.store.doc.send(new PutCommand({ TableName: deps.store.table('signInCodes'), Item: { ...secret, tries: 0, expiresAtEpoch: epoch(secret.expiresAt) } }));
}

export async function getSignInSecret(deps: Deps, id: string): Promise<StoredSignInSecret | undefined> {
  return readItem<StoredSignInSecret>(deps.store, deps.store.table('signInCodes'), { id });
}

/** Counts a wrong try while fewer than `maxTries` were made: false once the tries are used up. */
export async function countSignInTry(deps: Deps, id: string, secretHash: string, maxTries: number): Promise<boolean> {
  const counted = await updateIf(deps.store, deps.store.table('signInCodes'), { id }, {
    UpdateExpression: 'ADD tries :one',
    ConditionExpression: 'secretHash = :hash AND tries < :max AND attribute_not_exists(usedAt)',
    ExpressionAttributeValues: { ':one': 1, ':hash': secretHash, ':max': maxTries },
  });
  return counted !== undefined;
}

/** Uses the secret once, if it is still this one, unused, within its tries and unexpired: false otherwise. */
export async function useSignInSecret(deps: Deps, id: string, secretHash: string, maxTries: number, now: Date): Promise<boolean> {
  const used = await updateIf(deps.store, deps.store.table('signInCodes'), { id }, {
    UpdateExpression: 'SET usedAt = :now',
    ConditionExpression: 'secretHash = :hash AND tries < :max AND attribute_not_exists(usedAt) AND expiresAt > :now',
    ExpressionAttributeValues: { ':hash': secretHash, ':max': maxTries, ':now': now.toISOString() },
  });
  return used !== undefined;
}

// Sessions

export async function putSession(deps: Deps, session: StoredSession): Promise<void> {
  await putNewItem(deps.store, deps.store.table('sessions'), session, 'sessionHash');
}

export async function getSession(deps: Deps, sessionHash: string): Promise<StoredSession | undefined> {
  return readItem<StoredSession>(deps.store, deps.store.table('sessions'), { sessionHash });
}

export async function touchSession(deps: Deps, sessionHash: string, at: string): Promise<void> {
  await updateIf(deps.store, deps.store.table('sessions'), { sessionHash }, {
    UpdateExpression: 'SET lastSeenAt = :at',
    ConditionExpression: 'attribute_exists(sessionHash)',
    ExpressionAttributeValues: { ':at': at },
  });
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

// Passkeys

export async function putPasskey(deps: Deps, passkey: StoredPasskey): Promise<boolean> {
  return putIf(deps.store, deps.store.table('passkeys'), passkey, { ConditionExpression: 'attribute_not_exists(credentialId)' });
}

export async function getPasskey(deps: Deps, credentialId: string): Promise<StoredPasskey | undefined> {
  return readItem<StoredPasskey>(deps.store, deps.store.table('passkeys'), { credentialId });
}

export async function passkeysOfUser(deps: Deps, userId: string): Promise<StoredPasskey[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({ TableName: deps.store.table('passkeys'), IndexName: 'byUser', KeyConditionExpression: 'userId = :u', ExpressionAttributeValues: { ':u': userId } }),
  );
  return (result.Items ?? []) as StoredPasskey[];
}

/** Records a sign-in with the passkey: its new signature counter, only if it grew (or both are 0, as many authenticators keep). */
export async function recordPasskeyUse(deps: Deps, credentialId: string, counter: number, at: string): Promise<boolean> {
  const recorded = await updateIf(deps.store, deps.store.table('passkeys'), { credentialId }, {
    UpdateExpression: 'SET #counter = :counter, lastUsedAt = :at',
    ConditionExpression: `attribute_exists(credentialId) AND #counter ${counter === 0 ? '=' : '<'} :counter`,
    ExpressionAttributeNames: { '#counter': 'counter' },
    ExpressionAttributeValues: { ':counter': counter, ':at': at },
  });
  return recorded !== undefined;
}

export async function deletePasskeyOfUser(deps: Deps, credentialId: string, userId: string): Promise<boolean> {
  const deleted = await deleteIf(deps.store, deps.store.table('passkeys'), { credentialId }, { ConditionExpression: 'userId = :u', ExpressionAttributeValues: { ':u': userId } });
  return deleted !== undefined;
}
