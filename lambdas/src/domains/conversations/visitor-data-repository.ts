import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { deleteIf, putIf, queryAll, updateIf } from '../../infra/store/dynamo';
import type { ConversationMetaItem } from './repository';

/**
 * The store calls behind a visitor's data (export, erasure, retention) in the `conversations` table: a pointer per
 * visitor and per verified user to each of their conversations (`visitor#<workspace>#v#<visitor id>` and
 * `visitor#<workspace>#u#<user id>`, sk the conversation id), so a visitor's conversations are one Query; every item
 * of a conversation's partition; the tombstone an erased conversation's `meta` item becomes.
 */
const table = (deps: Deps) => deps.store.table('conversations');

/** Who a visitor is: the widget's visitor id, or the id the host signed for a verified visitor. */
export type VisitorKey = { visitorId: string } | { userId: string };

const pointerPartition = (workspaceId: string, who: VisitorKey) =>
  'visitorId' in who ? `visitor#${workspaceId}#v#${who.visitorId}` : `visitor#${workspaceId}#u#${who.userId}`;

/** Points the visitor (and the verified user) at the conversation. */
export async function putVisitorPointers(
  deps: Deps,
  workspaceId: string,
  who: VisitorKey[],
  conversationId: string,
  expiresAtEpoch: number | undefined,
): Promise<void> {
  await Promise.all(
    who.map((key) =>
      deps.store.doc.send(
        new PutCommand({
          TableName: table(deps),
          Item: { conversationId: pointerPartition(workspaceId, key), sk: conversationId, ...(expiresAtEpoch === undefined ? {} : { expiresAtEpoch }) },
        }),
      ),
    ),
  );
}

/** The ids of the visitor's conversations in the workspace (every page). */
export async function queryVisitorConversationIds(deps: Deps, workspaceId: string, who: VisitorKey): Promise<string[]> {
  const pointers = await queryAll<{ sk: string }>(deps.store, {
    TableName: table(deps),
    KeyConditionExpression: 'conversationId = :p',
    ExpressionAttributeValues: { ':p': pointerPartition(workspaceId, who) },
    ConsistentRead: true,
  });
  return pointers.map((pointer) => pointer.sk);
}

/** The key of the visitor's pointer to the conversation. */
export const visitorPointerKey = (workspaceId: string, who: VisitorKey, conversationId: string) => ({
  conversationId: pointerPartition(workspaceId, who),
  sk: conversationId,
});

export const deleteVisitorPointer = (deps: Deps, workspaceId: string, who: VisitorKey, conversationId: string) =>
  deleteIf(deps.store, table(deps), visitorPointerKey(workspaceId, who, conversationId), { ConditionExpression: 'attribute_exists(sk)' });

/** One item of a conversation's partition: its `meta` item, `message#…` entries, `action#…` pending actions. */
export interface ConversationItem {
  conversationId: string;
  sk: string;
  [attribute: string]: unknown;
}

/** Every item of the conversation's partition (every page). */
export const queryConversationItems = (deps: Deps, conversationId: string): Promise<ConversationItem[]> =>
  queryAll<ConversationItem>(deps.store, {
    TableName: table(deps),
    KeyConditionExpression: 'conversationId = :id',
    ExpressionAttributeValues: { ':id': conversationId },
    ConsistentRead: true,
  });

/** Deletes one item by its key (a missing one is no failure: an erasure resumed after a crash). */
export const deleteConversationItem = (deps: Deps, { conversationId, sk }: { conversationId: string; sk: string }) =>
  deleteIf(deps.store, table(deps), { conversationId, sk }, { ConditionExpression: 'attribute_exists(sk)' });

/**
 * Replaces the conversation's `meta` item with a tombstone that keeps nothing of the visitor (its agent, workspace
 * and start, so a late writer hears CONVERSATION_ERASED and its agent-list entry can still be found); a conversation
 * erased already stays as it is.
 */
export async function putErasedTombstone(
  deps: Deps,
  meta: Pick<ConversationMetaItem, 'conversationId' | 'agentId' | 'workspaceId' | 'createdAt'>,
  erasedAt: string,
): Promise<void> {
  await putIf(
    deps.store,
    table(deps),
    { conversationId: meta.conversationId, sk: 'meta', agentId: meta.agentId, workspaceId: meta.workspaceId, createdAt: meta.createdAt, erasedAt },
    { ConditionExpression: 'attribute_not_exists(erasedAt)' },
  );
}

/** Deletes the verified user's pointer to their latest conversation if it still points at this one. */
export const deleteUserPointerIf = (deps: Deps, key: { conversationId: string; sk: string }, conversationId: string) =>
  deleteIf(deps.store, table(deps), key, { ConditionExpression: 'latest = :c', ExpressionAttributeValues: { ':c': conversationId } });

/**
 * Sets (or, for a workspace that keeps conversations, removes) the TTL attribute of one item; `ifLatest`: only while
 * it is the verified user's pointer to that conversation.
 */
export async function stampExpiry(
  deps: Deps,
  { conversationId, sk }: { conversationId: string; sk: string },
  expiresAtEpoch: number | undefined,
  ifLatest?: string,
): Promise<void> {
  const values = { ...(expiresAtEpoch === undefined ? {} : { ':e': expiresAtEpoch }), ...(ifLatest ? { ':c': ifLatest } : {}) };
  await updateIf(
    deps.store,
    table(deps),
    { conversationId, sk },
    {
      UpdateExpression: expiresAtEpoch === undefined ? 'REMOVE expiresAtEpoch' : 'SET expiresAtEpoch = :e',
      ConditionExpression: ifLatest ? 'latest = :c' : 'attribute_exists(sk)',
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  );
}
