import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { deleteIf, putIf, readItem, updateIf } from '../../infra/store/dynamo';
import { setDisplayName } from './user-repository';

/**
 * The people domain's store calls for memberships (and each workspace's owner count): the `memberships` table.
 * Single-item conditional writes only; expiry is checked by the callers, in code.
 */

export interface StoredMembership {
  workspaceId: string;
  userId: string;
  role: string;
  workspaceName: string;
  email: string;
  displayName: string;
  joinedAt: string;
}

const OWNER_COUNT_KEY = '#owners';

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
    new QueryCommand({
      TableName: deps.store.table('memberships'),
      IndexName: 'byUser',
      KeyConditionExpression: 'userId = :u',
      ExpressionAttributeValues: { ':u': userId },
    }),
  );
  return (result.Items ?? []) as StoredMembership[];
}

/** Adds the membership unless the person already is a member: true when added. */
export async function putMembershipIfAbsent(deps: Deps, membership: StoredMembership): Promise<boolean> {
  return putIf(deps.store, deps.store.table('memberships'), membership, { ConditionExpression: 'attribute_not_exists(userId)' });
}

/** Sets the role of an existing member whose role is still `expectedRole`: the updated membership, or undefined. */
export async function setMembershipRole(
  deps: Deps,
  workspaceId: string,
  userId: string,
  expectedRole: string,
  role: string,
): Promise<StoredMembership | undefined> {
  return updateIf<StoredMembership>(
    deps.store,
    deps.store.table('memberships'),
    { workspaceId, userId },
    {
      UpdateExpression: 'SET #role = :role',
      ConditionExpression: 'attribute_exists(userId) AND #role = :expected',
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':role': role, ':expected': expectedRole },
    },
  );
}

/** Deletes a membership whose role is still `expectedRole`: false when it changed or is gone. */
export async function deleteMembership(deps: Deps, workspaceId: string, userId: string, expectedRole: string): Promise<boolean> {
  const deleted = await deleteIf(
    deps.store,
    deps.store.table('memberships'),
    { workspaceId, userId },
    {
      ConditionExpression: '#role = :expected',
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':expected': expectedRole },
    },
  );
  return deleted !== undefined;
}

/**
 * Moves the workspace's owner count by `delta`; a decrement applies only while more than one owner remains (the
 * single item every owner change passes through, so two concurrent demotions cannot both succeed). False when refused.
 */
export async function changeOwnerCount(deps: Deps, workspaceId: string, delta: 1 | -1): Promise<boolean> {
  const changed = await updateIf(
    deps.store,
    deps.store.table('memberships'),
    { workspaceId, userId: OWNER_COUNT_KEY },
    {
      UpdateExpression: 'ADD owners :delta',
      ...(delta < 0
        ? { ConditionExpression: 'owners > :one', ExpressionAttributeValues: { ':delta': delta, ':one': 1 } }
        : { ExpressionAttributeValues: { ':delta': delta } }),
    },
  );
  return changed !== undefined;
}

/** The copies of a person's display name beside their memberships follow a change; a gone membership stays gone. */
export async function copyDisplayNameToMemberships(deps: Deps, userId: string, displayName: string): Promise<void> {
  const memberships = await membershipsByUser(deps, userId);
  await Promise.all(
    memberships.map(({ workspaceId }) => updateIf(deps.store, deps.store.table('memberships'), { workspaceId, userId }, setDisplayName(displayName, 'userId'))),
  );
}
