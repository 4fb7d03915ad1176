import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';

/**
 * The conversations of an agent, for the dashboard (read-only): each new conversation puts one item in the agent's
 * partition of the conversations table (`agent#<agentId>`, sorted by start time), so listing needs no index; the
 * summary (last activity, message count) is read from each conversation's `meta` item.
 */
const agentPartition = (agentId: string) => `agent#${agentId}`;

export interface ConversationSummary {
  conversationId: string;
  agentId: string;
  workspaceId: string;
  visitorId: string;
  userId: string | null;
  locale: string;
  startedAt: string;
  lastMessageAt: string;
  messages: number;
}

export interface TranscriptMessage {
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
}

/** Lists a newly started conversation under its agent. */
export async function listUnderAgent(
  deps: Deps,
  start: { conversationId: string; agentId: string; workspaceId: string },
  at: Date,
  expiresAtEpoch: number,
): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({
      TableName: deps.store.table('conversations'),
      Item: { conversationId: agentPartition(start.agentId), sk: `${at.toISOString()}#${start.conversationId}`, ref: start.conversationId, workspaceId: start.workspaceId, expiresAtEpoch },
    }),
  );
}

interface MetaItem {
  conversationId: string;
  agentId: string;
  workspaceId: string;
  visitorId: string;
  userId?: string;
  locale: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
}

const toSummary = (meta: MetaItem): ConversationSummary => ({
  conversationId: meta.conversationId,
  agentId: meta.agentId,
  workspaceId: meta.workspaceId,
  visitorId: meta.visitorId,
  userId: meta.userId ?? null,
  locale: meta.locale,
  startedAt: meta.createdAt,
  lastMessageAt: meta.updatedAt,
  messages: Number(meta.messageCount ?? 0),
});

/** An agent's conversations, most recently started first, a page at a time (`cursor`: the previous page's last). */
export async function listAgentConversations(deps: Deps, agentId: string, limit: number, cursor?: string): Promise<{ conversations: ConversationSummary[]; nextCursor: string | null }> {
  const table = deps.store.table('conversations');
  const page = await deps.store.doc.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'conversationId = :agent',
      ExpressionAttributeValues: { ':agent': agentPartition(agentId) },
      ScanIndexForward: false,
      Limit: limit,
      ...(cursor ? { ExclusiveStartKey: { conversationId: agentPartition(agentId), sk: cursor } } : {}),
    }),
  );
  const refs = (page.Items ?? []).map((item) => item.ref as string);
  if (refs.length === 0) return { conversations: [], nextCursor: null };
  const metas = await deps.store.doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: refs.map((ref) => ({ conversationId: ref, sk: 'meta' })) } } }));
  const byId = new Map(((metas.Responses?.[table] ?? []) as MetaItem[]).map((meta) => [meta.conversationId, meta]));
  const conversations = refs.flatMap((ref) => (byId.has(ref) ? [toSummary(byId.get(ref)!)] : []));
  const last = page.LastEvaluatedKey?.sk as string | undefined;
  return { conversations, nextCursor: last ?? null };
}

const TRANSCRIPT_LIMIT = 500;

/** One conversation of the workspace with its transcript, oldest first (NOT_FOUND for another workspace's). */
export async function conversationTranscript(deps: Deps, workspaceId: string, conversationId: string): Promise<{ conversation: ConversationSummary; messages: TranscriptMessage[] }> {
  const table = deps.store.table('conversations');
  const meta = (await deps.store.doc.send(new GetCommand({ TableName: table, Key: { conversationId, sk: 'meta' } }))).Item as MetaItem | undefined;
  if (!meta || meta.workspaceId !== workspaceId) throw new DomainError('NOT_FOUND', `No conversation ${conversationId} in this workspace`, { field: 'conversation_id' });
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'conversationId = :id AND begins_with(sk, :message)',
      ExpressionAttributeValues: { ':id': conversationId, ':message': 'message#' },
      Limit: TRANSCRIPT_LIMIT,
    }),
  );
  const messages = (result.Items ?? []).map(({ role, content, createdAt }) => ({ role, content, createdAt }) as TranscriptMessage);
  return { conversation: toSummary(meta), messages };
}
