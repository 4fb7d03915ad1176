import type { Deps } from '../../infra/deps';
import { getConversationMetas, queryAgentConversationRefs } from './agent-conversation-repository';
import { handlingOf, readConversation } from './conversation-state';
import { queryMessages, seqOf, type ConversationMetaItem, type Handling, type StoredMessage } from './repository';

/**
 * The conversations of an agent, for the dashboard (read-only): listed from the agent's own partition of the
 * conversations table, summarised from each conversation's `meta` item (agent-conversation-repository.ts).
 */
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
  handling: Handling;
}

/** A transcript entry with its place (seq). */
export type TranscriptMessage = Omit<StoredMessage, 'messageId' | 'actionSeed'> & { seq: number };

const toSummary = (meta: ConversationMetaItem): ConversationSummary => ({
  conversationId: meta.conversationId,
  agentId: meta.agentId,
  workspaceId: meta.workspaceId,
  visitorId: meta.visitorId,
  userId: meta.userId ?? null,
  locale: meta.locale,
  startedAt: meta.createdAt,
  lastMessageAt: meta.updatedAt,
  messages: Number(meta.messageCount ?? 0),
  handling: handlingOf(meta),
});

/** The summary of one conversation of the workspace (CONVERSATION_NOT_FOUND for another workspace's). */
export const conversationSummary = async (deps: Deps, workspaceId: string, conversationId: string): Promise<ConversationSummary> => toSummary(await readConversation(deps, workspaceId, conversationId));
export { toSummary };

/** An agent's conversations, most recently started first, a page at a time (`cursor`: the previous page's last). */
export async function listAgentConversations(deps: Deps, agentId: string, limit: number, cursor?: string): Promise<{ conversations: ConversationSummary[]; nextCursor: string | null }> {
  const { refs, next } = await queryAgentConversationRefs(deps, agentId, limit, cursor);
  if (refs.length === 0) return { conversations: [], nextCursor: null };
  const byId = await getConversationMetas(deps, refs);
  const conversations = refs.flatMap((ref) => (byId.has(ref) ? [toSummary(byId.get(ref)!)] : []));
  return { conversations, nextCursor: next };
}

const TRANSCRIPT_LIMIT = 500;

/** One conversation of the workspace with its transcript, oldest first (NOT_FOUND for another workspace's). */
export async function conversationTranscript(deps: Deps, workspaceId: string, conversationId: string): Promise<{ conversation: ConversationSummary; messages: TranscriptMessage[] }> {
  const meta = await readConversation(deps, workspaceId, conversationId);
  const messages = await queryMessages(deps, conversationId, TRANSCRIPT_LIMIT, 'oldest first');
  return { conversation: toSummary(meta), messages: messages.map(({ messageId, actionSeed: _seed, ...message }) => ({ ...message, seq: seqOf(messageId) })) };
}
