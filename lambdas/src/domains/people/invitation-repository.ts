import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { deleteIf, putNewItem, readItem, setOnce } from '../../infra/store/dynamo';

/**
 * The people domain's store calls for invitations: the `invitations` table.
 * Single-item conditional writes only; expiry is checked by the callers, in code.
 */

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
  return setOnce(deps.store, deps.store.table('invitations'), { tokenHash }, 'acceptedAt', at);
}

/** Deletes an invitation not yet accepted: false when it was accepted meanwhile or is gone. */
export async function deletePendingInvitation(deps: Deps, tokenHash: string): Promise<boolean> {
  const pending = { ConditionExpression: 'attribute_exists(tokenHash) AND attribute_not_exists(acceptedAt)' };
  return (await deleteIf(deps.store, deps.store.table('invitations'), { tokenHash }, pending)) !== undefined;
}
