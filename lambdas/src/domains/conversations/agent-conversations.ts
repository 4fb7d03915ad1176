import { DomainError } from '@service/shared';
import type { ConversationChannel, ConversationEmail } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { getConversationMetas, queryAgentConversationRefs } from './agent-conversation-repository';
import { handlingOf, readConversation } from './conversation-state';
import { queryMessages, seqOf, type ConversationMetaItem, type Handling, type StoredMessage, type StoredPreview } from './repository';
import { readMarker, readMarkers } from './read-marker-repository';
import { unreadAfter } from './read-markers';

/**
 * The conversations of an agent, for the dashboard's inbox: listed from the agent's own partition of the
 * conversations table, summarised from each conversation's `meta` item (agent-conversation-repository.ts).
 */
export interface ConversationSummary {
  conversationId: string;
  agentId: string;
  workspaceId: string;
  visitorId: string;
  userId: string | null;
  locale: string;
  channel: ConversationChannel;
  email: ConversationEmail | null;
  startedAt: string;
  lastMessageAt: string;
  messages: number;
  handling: Handling;
  /** Entries the reading teammate has not read; null when nobody reads (an API key). */
  unread: number | null;
  /** The page the widget was on when the conversation passed to people, else when it started. */
  page: string | null;
  /** The address the visitor left when nobody was available, and whether replies go to it. */
  visitorEmail: string | null;
  emailReplies: boolean;
  /** The last message's first line (the visitor's, the agent's or a teammate's); null before one. */
  preview: { role: StoredPreview['role']; text: string; at: string } | null;
}

/** A transcript entry with its place (seq). */
/** `actionSeed` names what wrote the entry (an inbound mail's entries: mail-view.ts finds the mail by it); never answered to a caller. */
export type TranscriptMessage = Omit<StoredMessage, 'messageId'> & { seq: number };

/** `readSeq`: the reading teammate's marker (undefined: nobody reads, an API key). */
const toSummary = (meta: ConversationMetaItem, readSeq?: number): ConversationSummary => ({
  conversationId: meta.conversationId,
  agentId: meta.agentId,
  workspaceId: meta.workspaceId,
  visitorId: meta.visitorId,
  userId: meta.userId ?? null,
  locale: meta.locale,
  channel: meta.channel ?? 'widget',
  email: meta.email ?? null,
  startedAt: meta.createdAt,
  lastMessageAt: meta.updatedAt,
  messages: Number(meta.messageCount ?? 0),
  handling: handlingOf(meta),
  unread: readSeq === undefined ? null : unreadAfter(Number(meta.messageCount ?? 0), readSeq),
  page: meta.handoff?.page ?? meta.page ?? null,
  visitorEmail: meta.visitorEmail ?? null,
  emailReplies: meta.emailReplies === true,
  preview: meta.preview ? { role: meta.preview.role, text: meta.preview.text, at: meta.preview.at } : null,
});

/** The summary of one conversation of the workspace (CONVERSATION_NOT_FOUND for another workspace's). */
export const conversationSummary = async (deps: Deps, workspaceId: string, conversationId: string): Promise<ConversationSummary> =>
  toSummary(await readConversation(deps, workspaceId, conversationId));
export { toSummary };

/**
 * Which conversations a list keeps (the inbox's tabs): `waiting` people have it and nobody claimed it; `mine` the
 * given teammate claimed it (and it is not closed); `closed`; `all` every one.
 */
export type ConversationFilter = { state: 'all' | 'waiting' | 'closed' } | { state: 'mine'; teammateId: string };

/** A list's `state` as a filter: `mine` is the given teammate's; a caller who is nobody (an API or MCP key) claims nothing. */
export function conversationFilter(state: ConversationFilter['state'], teammateId: string | undefined): ConversationFilter {
  if (state !== 'mine') return { state };
  if (!teammateId) throw new DomainError('VALIDATION_ERROR', 'A key claims nothing: `mine` needs a signed-in person', { field: 'state' });
  return { state, teammateId };
}

const keeps = (filter: ConversationFilter, { handling }: ConversationSummary): boolean => {
  switch (filter.state) {
    case 'all':
      return true;
    case 'waiting':
      return handling.handler === 'people' && !handling.assignee;
    case 'mine':
      return handling.handler === 'people' && handling.assignee?.id === filter.teammateId;
    case 'closed':
      return handling.handler === 'closed';
  }
};

/** How many of the agent's list one filtered request reads at most; past it the answer is short but has a cursor. */
const SCAN_PAGES = 10;

/**
 * An agent's conversations that `filter` keeps, most recently started first, a page at a time (`cursor`: the previous
 * page's `nextCursor`). A filtered page reads the list until it has `limit` or read SCAN_PAGES pages of it: a page may
 * then hold fewer than `limit` with a `nextCursor`, the place where the next one goes on.
 */
export async function listAgentConversations(
  deps: Deps,
  agentId: string,
  page: { limit: number; cursor?: string | undefined },
  filter: ConversationFilter = { state: 'all' },
  readerId?: string,
): Promise<{ conversations: ConversationSummary[]; nextCursor: string | null }> {
  const listed = await listFiltered(deps, agentId, page, filter);
  if (!readerId) return listed;
  const markers = await readMarkers(
    deps,
    listed.conversations.map((conversation) => conversation.conversationId),
    readerId,
  );
  return {
    ...listed,
    conversations: listed.conversations.map((conversation) => ({
      ...conversation,
      unread: unreadAfter(conversation.messages, markers.get(conversation.conversationId) ?? 0),
    })),
  };
}

async function listFiltered(
  deps: Deps,
  agentId: string,
  page: { limit: number; cursor?: string | undefined },
  filter: ConversationFilter,
): Promise<{ conversations: ConversationSummary[]; nextCursor: string | null }> {
  const conversations: ConversationSummary[] = [];
  let cursor = page.cursor;
  for (let read = 0; read < SCAN_PAGES; read += 1) {
    const { refs, next } = await queryAgentConversationRefs(deps, agentId, page.limit, cursor);
    const byId = refs.length
      ? await getConversationMetas(
          deps,
          refs.map(({ ref }) => ref),
        )
      : new Map<string, ConversationMetaItem>();
    for (const { ref, at } of refs) {
      const meta = byId.get(ref);
      // An erased conversation's entry is about to go (visitors/erase removes it last).
      if (meta && !meta.erasedAt && keeps(filter, toSummary(meta))) conversations.push(toSummary(meta));
      if (conversations.length === page.limit) return { conversations, nextCursor: at === refs.at(-1)?.at ? next : at };
    }
    if (!next) return { conversations, nextCursor: null };
    cursor = next;
  }
  return { conversations, nextCursor: cursor ?? null };
}

const TRANSCRIPT_LIMIT = 500;

/** One conversation of the workspace with its transcript, oldest first (NOT_FOUND for another workspace's); `readerId`: whose unread count. */
export async function conversationTranscript(
  deps: Deps,
  workspaceId: string,
  conversationId: string,
  readerId?: string,
): Promise<{ conversation: ConversationSummary; messages: TranscriptMessage[] }> {
  const meta = await readConversation(deps, workspaceId, conversationId);
  const [messages, readSeq] = await Promise.all([
    queryMessages(deps, conversationId, TRANSCRIPT_LIMIT, 'oldest first'),
    readerId ? readMarker(deps, conversationId, readerId) : undefined,
  ]);
  return { conversation: toSummary(meta, readSeq), messages: messages.map(({ messageId, ...message }) => ({ ...message, seq: seqOf(messageId) })) };
}
