import { DomainError } from '@service/shared';
import { PREVIEW_ROLES, previewLine, VISITOR_ROLES, type ConversationHandler, type PreviewRole } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import {
  countMessage,
  getUserPointer,
  messageIdOf,
  putMessage,
  putPreview,
  seqOf,
  putUserPointer,
  queryLatestMessages,
  readConversationMeta,
  readMessage,
  upsertConversationMeta,
  type ConversationStart,
  type StoredMessage,
} from './repository';
import { putAgentConversationRef } from './agent-conversation-repository';
import { announceConversation } from './conversation-signal';
import { noteInboxChange } from './inbox-feed';
import { conversationExpiry } from './retention';
import { putVisitorPointers } from './visitor-data-repository';
import { erased, isVisitorsConversation, notFound, readConversation, type WidgetVisitor } from './conversation-state';

/**
 * The conversations domain: widget conversations and their messages, who handles them (the agent or people: handling.ts),
 * live streams to the visitor and the inbox, availability and the e-mail fallback, read markers, retention stamps,
 * the visitor's pointers, and the visitor's conversations as export and erasure see them (visitor-conversations.ts).
 */
export type { ConversationMetaItem, ConversationStart, StoredMessage } from './repository';
export { seqOf, stopEmailReplies } from './repository';

/** Whether an entry is what the inbox list previews (the visitor's, the agent's or a teammate's message). */
const isPreviewed = (role: StoredMessage['role']): role is PreviewRole => (PREVIEW_ROLES as readonly string[]).includes(role);

/**
 * Creates the conversation's `meta` item, or touches it when it exists. A conversation id belongs to one agent
 * and one visitor, or to one verified user on any device; anyone else presenting it is refused (one conditional
 * write, no read-then-write race).
 */
export async function openConversation(deps: Deps, start: ConversationStart): Promise<{ handler: ConversationHandler }> {
  const now = deps.now();
  const expires = await conversationExpiry(deps, start.workspaceId, now);
  const opened = await upsertConversationMeta(deps, start, now, expires);
  if (!opened) {
    if ((await readConversationMeta(deps, start.conversationId))?.erasedAt) throw erased(start.conversationId);
    throw new DomainError('VALIDATION_ERROR', 'This conversation id belongs to another conversation', { field: 'conversationId' });
  }
  // A new conversation is listed under its agent (conversations/list).
  if (opened.created) {
    await putAgentConversationRef(deps, start, now, expires);
    await noteInboxChange(deps, start.workspaceId, start.conversationId);
  }
  if (start.userId) await putUserPointer(deps, start.agentId, start.userId, start.conversationId, expires);
  // Where visitors/export and visitors/erase find it (a verified user's too: they may come from several devices).
  await putVisitorPointers(
    deps,
    start.workspaceId,
    [{ visitorId: start.visitorId }, ...(start.userId ? [{ userId: start.userId }] : [])],
    start.conversationId,
    expires,
  );
  return { handler: opened.handler };
}

/**
 * Appends one transcript entry as its own item at the next position of the transcript (`stopped`: a reply cut short
 * by the visitor; `author`: a teammate's; `actionSeed`: the idempotent request that wrote it). Stored when this resolves.
 */
export async function appendEntry(deps: Deps, conversationId: string, entry: Omit<StoredMessage, 'messageId' | 'createdAt'>): Promise<StoredMessage> {
  const now = deps.now();
  const counted = await countMessage(deps, conversationId).catch(async (error: unknown) => {
    throw (await readConversationMeta(deps, conversationId))?.erasedAt ? erased(conversationId) : error;
  });
  const message: StoredMessage = { messageId: messageIdOf(counted.count), createdAt: now.toISOString(), ...entry };
  await putMessage(deps, conversationId, message, await conversationExpiry(deps, counted.workspaceId, now));
  // The inbox list's preview, kept current as each message is written (a list reads no transcript).
  if (isPreviewed(message.role))
    await putPreview(deps, conversationId, { seq: seqOf(message.messageId), role: message.role, text: previewLine(message.content), at: message.createdAt });
  announceConversation(conversationId);
  await noteInboxChange(deps, counted.workspaceId, conversationId);
  return message;
}

/** Appends an entry once per `seed` (a mail worked again after a crash finds the entry it stored, among the latest 100). */
export async function appendEntryOnce(
  deps: Deps,
  conversationId: string,
  seed: string,
  entry: Omit<StoredMessage, 'messageId' | 'createdAt' | 'actionSeed'>,
): Promise<StoredMessage> {
  const earlier = (await queryLatestMessages(deps, conversationId, 100)).find((message) => message.actionSeed === seed);
  return earlier ?? appendEntry(deps, conversationId, { ...entry, actionSeed: seed });
}

/** Appends the visitor's or the agent's message; its id. */
export async function appendMessage(
  deps: Deps,
  conversationId: string,
  role: 'user' | 'assistant',
  content: string,
  options: { stopped?: boolean } = {},
): Promise<string> {
  return (await appendEntry(deps, conversationId, { role, content, ...(options.stopped ? { stopped: true as const } : {}) })).messageId;
}

/** Whether the visitor may see an entry: everything but internal notes. */
/** The conversation's latest `count` entries, newest first, every role (a door's history to answer from). */
export const latestEntries = (deps: Deps, conversationId: string, count: number): Promise<StoredMessage[]> => queryLatestMessages(deps, conversationId, count);

export const visibleToVisitor = (message: Pick<StoredMessage, 'role'>): boolean => (VISITOR_ROLES as readonly string[]).includes(message.role);

/** A verified user's latest conversation with the agent, its last `limit` messages oldest first; null when none. */
export async function userConversation(
  deps: Deps,
  agentId: string,
  userId: string,
  limit: number,
): Promise<{ conversationId: string; messages: StoredMessage[] } | null> {
  const conversationId = await getUserPointer(deps, agentId, userId);
  if (!conversationId) return null;
  // Notes never reach the visitor: read past them so the visitor still gets `limit` of their own.
  const messages = (await queryLatestMessages(deps, conversationId, limit * 4)).filter(visibleToVisitor).slice(0, limit);
  return { conversationId, messages: messages.reverse() };
}

/**
 * The agent's answer `messageId` in the visitor's own conversation, and the conversation's workspace: anyone else's
 * conversation is CONVERSATION_NOT_FOUND (as a missing one), an entry that is not the agent's answer NOT_FOUND.
 */
export async function visitorsAnswer(
  deps: Deps,
  visitor: WidgetVisitor,
  conversationId: string,
  messageId: string,
): Promise<{ workspaceId: string; message: StoredMessage }> {
  const meta = await readConversation(deps, undefined, conversationId);
  if (!isVisitorsConversation(meta, visitor)) throw notFound(conversationId);
  const message = await readMessage(deps, conversationId, messageId);
  if (message?.role !== 'assistant') throw new DomainError('NOT_FOUND', `No answer ${messageId} of the agent in this conversation`, { field: 'messageId' });
  return { workspaceId: meta.workspaceId, message };
}
