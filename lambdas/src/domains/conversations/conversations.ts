import { DomainError } from '@service/shared';
import { VISITOR_ROLES, type ConversationHandler } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { countMessage, getUserPointer, messageIdOf, putMessage, putUserPointer, queryLatestMessages, upsertConversationMeta, type ConversationStart, type StoredMessage } from './repository';
import { putAgentConversationRef } from './agent-conversation-repository';
import { announceConversation } from './conversation-signal';

export type { ConversationStart, StoredMessage } from './repository';

/** Widget conversations are kept for 30 days (expiry checked by the TTL sweep in AWS; nothing reads them back past it). */
const RETENTION_SECONDS = 30 * 24 * 3600;
export const expiresAtEpoch = (now: Date) => Math.floor(now.getTime() / 1000) + RETENTION_SECONDS;

/**
 * Creates the conversation's `meta` item, or touches it when it exists. A conversation id belongs to one agent
 * and one visitor, or to one verified user on any device; anyone else presenting it is refused (one conditional
 * write, no read-then-write race).
 */
export async function openConversation(deps: Deps, start: ConversationStart): Promise<{ handler: ConversationHandler }> {
  const now = deps.now();
  const opened = await upsertConversationMeta(deps, start, now, expiresAtEpoch(now));
  if (!opened) throw new DomainError('VALIDATION_ERROR', 'This conversation id belongs to another conversation', { field: 'conversationId' });
  // A new conversation is listed under its agent (conversations/list).
  if (opened.created) await putAgentConversationRef(deps, start, now, expiresAtEpoch(now));
  if (start.userId) await putUserPointer(deps, start.agentId, start.userId, start.conversationId, expiresAtEpoch(now));
  return { handler: opened.handler };
}

/**
 * Appends one transcript entry as its own item at the next position of the transcript (`stopped`: a reply cut short
 * by the visitor; `author`: a teammate's; `actionSeed`: the idempotent request that wrote it). Stored when this resolves.
 */
export async function appendEntry(deps: Deps, conversationId: string, entry: Omit<StoredMessage, 'messageId' | 'createdAt'>): Promise<StoredMessage> {
  const now = deps.now();
  const message: StoredMessage = { messageId: messageIdOf(await countMessage(deps, conversationId)), createdAt: now.toISOString(), ...entry };
  await putMessage(deps, conversationId, message, expiresAtEpoch(now));
  announceConversation(conversationId);
  return message;
}

/** Appends the visitor's or the agent's message; its id. */
export async function appendMessage(deps: Deps, conversationId: string, role: 'user' | 'assistant', content: string, options: { stopped?: boolean } = {}): Promise<string> {
  return (await appendEntry(deps, conversationId, { role, content, ...(options.stopped ? { stopped: true as const } : {}) })).messageId;
}

/** Whether the visitor may see an entry: everything but internal notes. */
export const visibleToVisitor = (message: Pick<StoredMessage, 'role'>): boolean => (VISITOR_ROLES as readonly string[]).includes(message.role);

/** A verified user's latest conversation with the agent, its last `limit` messages oldest first; null when none. */
export async function userConversation(deps: Deps, agentId: string, userId: string, limit: number): Promise<{ conversationId: string; messages: StoredMessage[] } | null> {
  const conversationId = await getUserPointer(deps, agentId, userId);
  if (!conversationId) return null;
  // Notes never reach the visitor: read past them so the visitor still gets `limit` of their own.
  const messages = (await queryLatestMessages(deps, conversationId, limit * 4)).filter(visibleToVisitor).slice(0, limit);
  return { conversationId, messages: messages.reverse() };
}
