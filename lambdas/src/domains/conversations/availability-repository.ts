import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AvailabilitySettings } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { readItem } from '../../infra/store/dynamo';

/**
 * The store calls of availability (issue 29), in the conversations table: a workspace's settings item
 * (`availability#<workspaceId>`), and the claim-timeout partition (`claim-due`), one item per conversation that waits
 * for a teammate under a claim timeout, sorted by the moment it is due, so the sweeper reads only what is due.
 */
const table = (deps: Deps) => deps.store.table('conversations');
const settingsKey = (workspaceId: string) => ({ conversationId: `availability#${workspaceId}`, sk: 'settings' });
const CLAIM_DUE = 'claim-due';

export const readAvailabilityItem = async (deps: Deps, workspaceId: string): Promise<AvailabilitySettings | undefined> =>
  (await readItem<{ settings: AvailabilitySettings }>(deps.store, table(deps), settingsKey(workspaceId)))?.settings;

export async function putAvailabilityItem(deps: Deps, workspaceId: string, settings: AvailabilitySettings, at: Date): Promise<void> {
  await deps.store.doc.send(new PutCommand({ TableName: table(deps), Item: { ...settingsKey(workspaceId), settings, updatedAt: at.toISOString() } }));
}

/** A conversation waiting for a teammate, due for the e-mail fallback at `dueAt` unless claimed first. */
export interface ClaimDue {
  conversationId: string;
  workspaceId: string;
  /** The conversation's language when it passed to people: the fallback message's. */
  language: string;
  /** The pointer's sort key, what deleting it names. */
  sk: string;
}

export async function putClaimDue(deps: Deps, due: Omit<ClaimDue, 'sk'>, dueAt: Date, expiresAtEpoch: number): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({
      TableName: table(deps),
      Item: {
        conversationId: CLAIM_DUE,
        sk: `${dueAt.toISOString()}#${due.conversationId}`,
        ref: due.conversationId,
        workspaceId: due.workspaceId,
        language: due.language,
        expiresAtEpoch,
      },
    }),
  );
}

/** The claim timeouts due at `now`, oldest first, at most `limit`. */
export async function queryClaimsDue(deps: Deps, now: Date, limit: number): Promise<ClaimDue[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'conversationId = :due AND sk <= :now',
      // '~' sorts after the '#<id>' tail: everything due up to and including this moment.
      ExpressionAttributeValues: { ':due': CLAIM_DUE, ':now': `${now.toISOString()}~` },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).map((item) => ({
    conversationId: item.ref as string,
    workspaceId: item.workspaceId as string,
    language: item.language as string,
    sk: item.sk as string,
  }));
}

export async function deleteClaimDue(deps: Deps, sk: string): Promise<void> {
  await deps.store.doc.send(new DeleteCommand({ TableName: table(deps), Key: { conversationId: CLAIM_DUE, sk } }));
}
