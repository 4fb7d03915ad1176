import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { readItem } from '../../infra/store/dynamo';

/**
 * The workspace's inbox feed (issue 29): every change of a conversation's place in the inbox (a new conversation, an
 * entry, a change of hands, a teammate's read marker) is numbered by the workspace's counter (`inbox#<workspaceId>`,
 * `head`) and stored as a `change#<seq>` item of the same partition of the conversations table, which the
 * workspace-wide stream reads in order (inbox-watch.ts). A change names the conversation, never its text.
 */
const table = (deps: Deps) => deps.store.table('conversations');
const feedPartition = (workspaceId: string) => `inbox#${workspaceId}`;
const changeSk = (seq: number) => `change#${String(seq).padStart(12, '0')}`;

/** How long a change is kept: a stream resumed later than this starts over (the dashboard reads its list again). */
export const FEED_KEEP_SECONDS = 24 * 3600;

export interface InboxChange {
  seq: number;
  conversationId: string;
  /** A teammate's read marker moved: only their own streams hear of it. */
  readerId?: string;
}

/** Numbers the change (the workspace's next seq) and stores it; the seq. */
export async function appendInboxChange(deps: Deps, workspaceId: string, change: Omit<InboxChange, 'seq'>): Promise<number> {
  const counted = await deps.store.doc.send(
    new UpdateCommand({
      TableName: table(deps),
      Key: { conversationId: feedPartition(workspaceId), sk: 'head' },
      UpdateExpression: 'ADD seq :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const seq = Number(counted.Attributes?.seq);
  const expiresAtEpoch = Math.floor(deps.now().getTime() / 1000) + FEED_KEEP_SECONDS;
  await deps.store.doc.send(
    new PutCommand({
      TableName: table(deps),
      Item: {
        conversationId: feedPartition(workspaceId),
        sk: changeSk(seq),
        seq,
        ref: change.conversationId,
        ...(change.readerId ? { readerId: change.readerId } : {}),
        expiresAtEpoch,
      },
    }),
  );
  return seq;
}

/** The changes after `afterSeq`, in order, at most `limit`, read consistently. */
export async function queryInboxChangesAfter(deps: Deps, workspaceId: string, afterSeq: number, limit: number): Promise<InboxChange[]> {
  const page = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'conversationId = :feed AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':feed': feedPartition(workspaceId), ':from': changeSk(afterSeq + 1), ':to': changeSk(999_999_999_999) },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return (page.Items ?? []).map((item) => ({
    seq: Number(item.seq),
    conversationId: String(item.ref),
    ...(item.readerId ? { readerId: String(item.readerId) } : {}),
  }));
}

/** The last seq the workspace's counter gave (0: no change yet). */
export async function readInboxHead(deps: Deps, workspaceId: string): Promise<number> {
  return Number((await readItem<{ seq: number }>(deps.store, table(deps), { conversationId: feedPartition(workspaceId), sk: 'head' }))?.seq ?? 0);
}
