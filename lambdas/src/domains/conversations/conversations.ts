import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { countMessage, getUserPointer, putMessage, putUserPointer, queryLatestMessages, upsertConversationMeta, type ConversationStart, type StoredMessage } from './repository';
import { listUnderAgent } from './agent-conversations';

export type { ConversationStart, StoredMessage } from './repository';

/** Widget conversations are kept for 30 days (expiry checked by the TTL sweep in AWS; nothing reads them back past it). */
const RETENTION_SECONDS = 30 * 24 * 3600;
const expiresAtEpoch = (now: Date) => Math.floor(now.getTime() / 1000) + RETENTION_SECONDS;

/**
 * Creates the conversation's `meta` item, or touches it when it exists. A conversation id belongs to one agent
 * and one visitor, or to one verified user on any device; anyone else presenting it is refused (one conditional
 * write, no read-then-write race).
 */
export async function openConversation(deps: Deps, start: ConversationStart): Promise<void> {
  const now = deps.now();
  const opened = await upsertConversationMeta(deps, start, now, expiresAtEpoch(now));
  if (!opened) throw new DomainError('VALIDATION_ERROR', 'This conversation id belongs to another conversation', { field: 'conversationId' });
  // A new conversation is listed under its agent (conversations/list).
  if (opened.created) await listUnderAgent(deps, start, now, expiresAtEpoch(now));
  if (start.userId) await putUserPointer(deps, start.agentId, start.userId, start.conversationId, expiresAtEpoch(now));
}

/** Appends one message as its own item, keyed by time and a sequence so messages sort in order (`stopped`: a reply cut short by the visitor). */
export async function appendMessage(deps: Deps, conversationId: string, role: 'user' | 'assistant', content: string, options: { stopped?: boolean } = {}): Promise<string> {
  const now = deps.now();
  const messageId = `msg_${String(await countMessage(deps, conversationId)).padStart(6, '0')}`;
  await putMessage(deps, conversationId, { messageId, role, content, createdAt: now.toISOString(), ...(options.stopped ? { stopped: true as const } : {}) }, expiresAtEpoch(now));
  return messageId;
}

/** A verified user's latest conversation with the agent, its last `limit` messages oldest first; null when none. */
export async function userConversation(deps: Deps, agentId: string, userId: string, limit: number): Promise<{ conversationId: string; messages: StoredMessage[] } | null> {
  const conversationId = await getUserPointer(deps, agentId, userId);
  if (!conversationId) return null;
  return { conversationId, messages: (await queryLatestMessages(deps, conversationId, limit)).reverse() };
}
