import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { getConversationMeta, getConversationMetas, putAgentConversationRef, queryAgentConversationRefs, type ConversationMetaItem } from './agent-conversation-repository';
import { queryMessages } from './repository';

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
}

export interface TranscriptMessage {
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  stopped?: true;
}

/** Lists a newly started conversation under its agent. */
export const listUnderAgent = putAgentConversationRef;

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
});

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
  const meta = await getConversationMeta(deps, conversationId);
  if (!meta || meta.workspaceId !== workspaceId) throw new DomainError('NOT_FOUND', `No conversation ${conversationId} in this workspace`, { field: 'conversation_id' });
  const messages = await queryMessages(deps, conversationId, TRANSCRIPT_LIMIT, 'oldest first');
  return { conversation: toSummary(meta), messages: messages.map(({ role, content, createdAt, stopped }) => ({ role, content, createdAt, ...(stopped ? { stopped } : {}) })) };
}
