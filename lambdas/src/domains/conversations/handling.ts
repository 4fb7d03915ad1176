import { DomainError } from '@service/shared';
import type { ConversationEventType, HandoffReason, LiveState, Teammate } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import type { Action } from '../../infra/store/idempotency';
import { emitEvent, eventIdFrom } from '../webhooks/emit';
import { announceConversation } from './conversation-signal';
import { noteInboxChange } from './inbox-feed';
import { afterHandoff } from './nobody-available';
import { mailReply } from './reply-by-mail';
import { appendEntry } from './conversations';
import { noteHandoff, noteHumanReply } from '../insights/record';
import { conversationExpiry } from './retention';
import { conversationRef, liveStateOf, notFound, readConversation } from './conversation-state';
import {
  messageIdOf,
  putMessageOnce,
  putTyping,
  queryLatestMessages,
  updateHandling,
  type ConversationMetaItem,
  type Handling,
  type StoredMessage,
} from './repository';

/**
 * Who handles a widget conversation (issue 29): the agent, people (a teammate who claimed it, or nobody yet), or
 * nobody (closed). Every change of hands is one conditional write of the conversation's `meta` item, decided on the
 * version read (a concurrent change makes it decide again), with its transcript entry ("Ana joined") stored before
 * the change is answered. Teammates' messages and notes are transcript entries like the visitor's.
 */

export type { ConversationMetaItem } from './repository';

const EVENT_TEXT: Record<ConversationEventType, (teammate: Teammate | undefined) => string> = {
  handoff_requested: () => 'The conversation waits for a teammate',
  joined: (teammate) => `${teammate?.name ?? 'A teammate'} joined`,
  handed_back: (teammate) => `${teammate?.name ?? 'A teammate'} handed the conversation back to the agent`,
  closed: (teammate) => (teammate ? `${teammate.name} closed the conversation` : 'The conversation was closed'),
  reopened: (teammate) => `${teammate?.name ?? 'A teammate'} reopened the conversation`,
  // Written by nobody-available.ts in the conversation's language, never from here.
  email_requested: () => 'Nobody was available: the visitor was asked for an e-mail address',
};

/** How many times a change of hands is decided again when another write came first. */
const RETRIES = 5;

const closed = (conversationId: string) => new DomainError('CONVERSATION_CLOSED', `The conversation ${conversationId} is closed`, { field: 'conversation_id' });

/** What a change of hands decided: the new handling and the event its transcript records; undefined: nothing changes. */
type Decision = { next: Handling; event: ConversationEventType; by?: Teammate } | undefined;

/**
 * Decides and applies a change of hands. A decision to change nothing still stores the last change's entry if a crash
 * kept it from the transcript (the retry of a change that was never answered).
 */
async function changeHands(
  deps: Deps,
  workspaceId: string | undefined,
  conversationId: string,
  decide: (meta: ConversationMetaItem) => Decision,
): Promise<{ meta: ConversationMetaItem; changed: boolean }> {
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    const meta = await readConversation(deps, workspaceId, conversationId);
    const decision = decide(meta);
    const now = deps.now();
    const expires = await conversationExpiry(deps, meta.workspaceId, now);
    if (!decision) {
      if (meta.lastEvent) await putMessageOnce(deps, conversationId, meta.lastEvent, expires);
      return { meta, changed: false };
    }
    const entry: StoredMessage = {
      messageId: messageIdOf(Number(meta.messageCount ?? 0) + 1),
      role: 'event',
      content: EVENT_TEXT[decision.event](decision.by),
      createdAt: now.toISOString(),
      event: decision.event,
      ...(decision.by ? { author: decision.by } : {}),
    };
    const updated = await updateHandling(deps, meta, decision.next, entry, expires);
    if (!updated) continue;
    await putMessageOnce(deps, conversationId, entry, expires);
    announceConversation(conversationId);
    await noteInboxChange(deps, updated.workspaceId, conversationId);
    return { meta: updated, changed: true };
  }
  throw new DomainError('RATE_LIMITED', 'The conversation is changing too fast; try again', { field: 'conversation_id', retryAfterSeconds: 1 });
}

/**
 * Passes the conversation to people (it waits for a teammate): the visitor asked, the agent called its `handoff` tool,
 * or a keyword matched. Nothing changes when people have it already. Sends conversation.handoff_requested; when nobody
 * is available, the agent asks the visitor for an e-mail address in the conversation's `language` (nobody-available.ts).
 */
export async function requestHandoff(
  deps: Deps,
  conversationId: string,
  request: { reason: HandoffReason; summary: string; language: string; page?: string | undefined },
): Promise<LiveState> {
  const handoff = (): NonNullable<Handling['handoff']> => ({
    reason: request.reason,
    summary: request.summary,
    requestedAt: deps.now().toISOString(),
    ...(request.page ? { page: request.page } : {}),
  });
  const { meta, changed } = await changeHands(deps, undefined, conversationId, (current) =>
    current.handler === 'people' ? undefined : { next: { handler: 'people', handoff: handoff() }, event: 'handoff_requested' },
  );
  await noteWithPeople(deps, meta);
  if (!changed || !meta.handoff) return liveStateOf(meta);
  await emitEvent(
    deps,
    meta.workspaceId,
    'conversation.handoff_requested',
    { ...conversationRef(meta), reason: meta.handoff.reason, summary: meta.handoff.summary, requested_at: meta.handoff.requestedAt },
    { eventId: eventIdFrom(`ho${conversationId}${meta.messageCount}`) },
  );
  return liveStateOf(await afterHandoff(deps, meta, request.language));
}

/** A teammate claims the conversation (or is assigned it): people handle it from now on, the visitor sees "<name> joined". */
export async function assignConversation(deps: Deps, workspaceId: string, conversationId: string, teammate: Teammate): Promise<ConversationMetaItem> {
  const { meta } = await changeHands(deps, workspaceId, conversationId, (current) => {
    if (current.handler === 'closed') throw closed(conversationId);
    if (current.handler === 'people' && current.assignee?.id === teammate.id) return undefined;
    const handoff = current.handler === 'agent' ? { reason: 'teammate' as const, summary: '', requestedAt: deps.now().toISOString() } : current.handoff;
    return { next: { handler: 'people', assignee: teammate, ...(handoff ? { handoff } : {}) }, event: 'joined', by: teammate };
  });
  await noteWithPeople(deps, meta);
  return meta;
}

/** Insights: when the conversation passed to people (noted again by a retry: the first time is kept). */
async function noteWithPeople(deps: Deps, meta: ConversationMetaItem): Promise<void> {
  if (meta.handler === 'people' && meta.handoff) await noteHandoff(deps, meta, new Date(meta.handoff.requestedAt));
}

/** Hands the conversation back to the agent, which answers the visitor's next message. */
export async function handBack(deps: Deps, workspaceId: string, conversationId: string, teammate: Teammate | undefined): Promise<ConversationMetaItem> {
  const { meta } = await changeHands(deps, workspaceId, conversationId, (current) => {
    if (current.handler === 'closed') throw closed(conversationId);
    if ((current.handler ?? 'agent') === 'agent') return undefined;
    const by = teammate ?? current.assignee;
    return { next: { handler: 'agent', ...(current.handoff ? { handoff: current.handoff } : {}) }, event: 'handed_back', ...(by ? { by } : {}) };
  });
  return meta;
}

/** Closes the conversation (closing a closed one changes nothing); sends conversation.closed. */
export async function closeConversation(
  deps: Deps,
  workspaceId: string,
  conversationId: string,
  teammate: Teammate | undefined,
): Promise<ConversationMetaItem> {
  const { meta } = await changeHands(deps, workspaceId, conversationId, (current) => {
    if (current.handler === 'closed') return undefined;
    return { next: { handler: 'closed', ...(current.handoff ? { handoff: current.handoff } : {}) }, event: 'closed', ...(teammate ? { by: teammate } : {}) };
  });
  // Sent again with the same id by a retry after a crash: a delivery already stored is not sent twice.
  if (meta.handler === 'closed' && meta.lastEvent?.event === 'closed') {
    const closing = meta.lastEvent;
    await emitEvent(
      deps,
      meta.workspaceId,
      'conversation.closed',
      { ...conversationRef(meta), closed_by: closing.author ?? null, closed_at: closing.createdAt },
      { eventId: eventIdFrom(`cc${conversationId}${closing.messageId}`) },
    );
  }
  return meta;
}

/**
 * Reopens a closed conversation: it goes back to waiting for a teammate (handler `people`, nobody claimed it), and the
 * visitor's next message reaches the teammates. Reopening one that is not closed changes nothing (a retry answers the same).
 */
export async function reopenConversation(
  deps: Deps,
  workspaceId: string,
  conversationId: string,
  teammate: Teammate | undefined,
): Promise<ConversationMetaItem> {
  const { meta } = await changeHands(deps, workspaceId, conversationId, (current) => {
    if (current.handler !== 'closed') return undefined;
    return { next: { handler: 'people', ...(current.handoff ? { handoff: current.handoff } : {}) }, event: 'reopened', ...(teammate ? { by: teammate } : {}) };
  });
  return meta;
}

/** The entry an earlier attempt of this idempotent request stored, if it got that far. */
async function storedBy(deps: Deps, conversationId: string, action: Action): Promise<StoredMessage | undefined> {
  if (!action.resumed || !action.seed) return undefined;
  return (await queryLatestMessages(deps, conversationId, 100)).find((message) => message.actionSeed === action.seed);
}

/** Sends conversation.message_created for an entry people see (stable id: a repeat is not delivered twice). */
export async function announceMessage(deps: Deps, meta: ConversationMetaItem, message: StoredMessage & { role: 'user' | 'teammate' | 'note' }): Promise<void> {
  await emitEvent(
    deps,
    meta.workspaceId,
    'conversation.message_created',
    {
      ...conversationRef(meta),
      message: { seq: Number(message.messageId.slice(4)), role: message.role, text: message.content, at: message.createdAt, author: message.author ?? null },
    },
    { eventId: eventIdFrom(`mc${meta.conversationId}${message.messageId}`) },
  );
}

/**
 * A teammate's message to the visitor (`teammate`) or an internal note (`note`), stored before this resolves. A reply
 * to a conversation nobody claimed (the agent's, or waiting) makes its author claim it first. `by` is the signed-in
 * teammate; with an API key (undefined) the message goes as the conversation's assignee, and a reply needs one.
 */
export async function teammateEntry(
  deps: Deps,
  workspaceId: string,
  conversationId: string,
  entry: { role: 'teammate' | 'note'; text: string; by: Teammate | undefined },
  action: Action,
): Promise<{ meta: ConversationMetaItem; message: StoredMessage }> {
  let meta = await readConversation(deps, workspaceId, conversationId);
  if (meta.handler === 'closed') throw closed(conversationId);
  const earlier = await storedBy(deps, conversationId, action);
  const author = entry.by ?? meta.assignee;
  if (entry.role === 'teammate' && !author) {
    throw new DomainError('VALIDATION_ERROR', 'Nobody has claimed this conversation: assign it to a member first (conversations/assign with user_id)', {
      field: 'conversation_id',
    });
  }
  if (entry.role === 'teammate' && author && (meta.handler !== 'people' || !meta.assignee))
    meta = await assignConversation(deps, workspaceId, conversationId, author);
  const message =
    earlier ??
    (await appendEntry(deps, conversationId, {
      role: entry.role,
      content: entry.text,
      ...(author ? { author } : {}),
      ...(action.seed ? { actionSeed: action.seed } : {}),
    }));
  if (entry.role === 'teammate') await noteHumanReply(deps, meta, new Date(message.createdAt));
  await announceMessage(deps, meta, { ...message, role: entry.role });
  // A visitor who left an address and is away gets the reply by e-mail too (once, even when this is a retry).
  await mailReply(deps, meta, message);
  return { meta, message };
}

/** Shows the visitor that a teammate is typing, for `forMs`; the moment it ends. */
export async function teammateTyping(deps: Deps, workspaceId: string, conversationId: string, teammate: Teammate | undefined, forMs: number): Promise<Date> {
  const meta = await readConversation(deps, workspaceId, conversationId);
  if (meta.handler === 'closed') throw closed(conversationId);
  const until = deps.now().getTime() + forMs;
  const name = teammate?.name ?? meta.assignee?.name ?? 'A teammate';
  if (!(await putTyping(deps, conversationId, { name, until }))) throw notFound(conversationId);
  announceConversation(conversationId);
  return new Date(until);
}
