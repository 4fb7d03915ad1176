import { BatchGetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import type { ConversationMetaItem } from './repository';

/**
 * The store calls behind an agent's conversation list (agent-conversations.ts): each new conversation puts one item in
 * the agent's partition of the conversations table (`agent#<agentId>`, sorted by start time, pointing at the
 * conversation), so listing needs no index; the summary is each conversation's `meta` item (repository.ts writes it).
 */
const agentPartition = (agentId: string) => `agent#${agentId}`;
const table = (deps: Deps) => deps.store.table('conversations');
/** The key of a conversation's entry in its agent's list (`startedAt`: the conversation's `createdAt`). */
export const agentRefKey = (agentId: string, startedAt: string, conversationId: string) => ({
  conversationId: agentPartition(agentId),
  sk: `${startedAt}#${conversationId}`,
});

export type { ConversationMetaItem } from './repository';

/** Puts the pointer of a newly started conversation into its agent's partition. */
export async function putAgentConversationRef(
  deps: Deps,
  start: { conversationId: string; agentId: string; workspaceId: string },
  at: Date,
  expiresAtEpoch: number | undefined,
): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({
      TableName: table(deps),
      Item: {
        ...agentRefKey(start.agentId, at.toISOString(), start.conversationId),
        ref: start.conversationId,
        workspaceId: start.workspaceId,
        ...(expiresAtEpoch === undefined ? {} : { expiresAtEpoch }),
      },
    }),
  );
}

/** One conversation of an agent's list: its id and its place (`at`, what a cursor names). */
export interface AgentConversationRef {
  ref: string;
  at: string;
}

/** A page of an agent's conversation ids, most recently started first; `cursor` is the previous page's `next`. */
export async function queryAgentConversationRefs(
  deps: Deps,
  agentId: string,
  limit: number,
  cursor?: string,
): Promise<{ refs: AgentConversationRef[]; next: string | null }> {
  const page = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'conversationId = :agent',
      ExpressionAttributeValues: { ':agent': agentPartition(agentId) },
      ScanIndexForward: false,
      Limit: limit,
      ...(cursor ? { ExclusiveStartKey: { conversationId: agentPartition(agentId), sk: cursor } } : {}),
    }),
  );
  return {
    refs: (page.Items ?? []).map((item) => ({ ref: item.ref as string, at: item.sk as string })),
    next: (page.LastEvaluatedKey?.sk as string | undefined) ?? null,
  };
}

/** The `meta` items of the given conversations, by conversation id (a missing one is absent). */
export async function getConversationMetas(deps: Deps, conversationIds: string[]): Promise<Map<string, ConversationMetaItem>> {
  const metas = await deps.store.doc.send(
    new BatchGetCommand({ RequestItems: { [table(deps)]: { Keys: conversationIds.map((conversationId) => ({ conversationId, sk: 'meta' })) } } }),
  );
  return new Map(((metas.Responses?.[table(deps)] ?? []) as ConversationMetaItem[]).map((meta) => [meta.conversationId, meta]));
}
