import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { toSummary, type ConversationSummary, type TranscriptMessage } from './agent-conversations';
import { agentRefKey, getConversationMetas, queryAgentConversationRefs } from './agent-conversation-repository';
import { announceConversation } from './conversation-signal';
import { noteInboxChange } from './inbox-feed';
import { readConversationMeta, seqOf, userKey, type ConversationMetaItem } from './repository';
import {
  deleteConversationItem,
  deleteUserPointerIf,
  deleteVisitorPointer,
  putErasedTombstone,
  queryConversationItems,
  queryVisitorConversationIds,
  stampExpiry,
  visitorPointerKey,
  type ConversationItem,
  type VisitorKey,
} from './visitor-data-repository';

/**
 * A visitor's conversations as visitors/ exports and erases them: the root of everything stored about a visitor
 * (the other domains find theirs from these conversations). Found from the visitor's pointers (one Query each).
 */
export type { ConversationMetaItem, VisitorKey };

/** How many conversations one export or erasure covers; a visitor with more is refused rather than half done. */
export const MAX_VISITOR_CONVERSATIONS = 500;

/** A conversation an erasure removes, with what finds its pointers once its `meta` item is a tombstone. */
export interface PlannedConversation {
  conversationId: string;
  agentId: string;
  createdAt: string;
  visitorIds: string[];
  userId?: string;
}

export interface FoundConversation {
  planned: PlannedConversation;
  /** Every item of its partition: `meta` (a tombstone once erased), `message#…`, `action#…`. */
  items: ConversationItem[];
}

export interface ExportedAction {
  id: string;
  toolName: string;
  summary: string;
  input: Record<string, unknown>;
  expiresAt: string;
}

export interface ExportedConversation {
  summary: ConversationSummary;
  messages: TranscriptMessage[];
  pendingActions: ExportedAction[];
}

/** The visitor's conversations in the workspace (not erased ones), as an erasure plans them. */
export async function visitorConversations(deps: Deps, workspaceId: string, who: VisitorKey): Promise<PlannedConversation[]> {
  const ids = await queryVisitorConversationIds(deps, workspaceId, who);
  if (ids.length > MAX_VISITOR_CONVERSATIONS) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `This visitor has ${ids.length} conversations; at most ${MAX_VISITOR_CONVERSATIONS} are exported or erased at once`,
      { field: 'visitor_id' },
    );
  }
  const metas = await Promise.all(ids.map((id) => readConversationMeta(deps, id)));
  return metas.filter((meta): meta is ConversationMetaItem => meta !== undefined && meta.workspaceId === workspaceId && !meta.erasedAt).map(plannedFrom);
}

/** A conversation as an erasure plans it, from its `meta` item. */
export const plannedFrom = (meta: ConversationMetaItem): PlannedConversation => ({
  conversationId: meta.conversationId,
  agentId: meta.agentId,
  createdAt: meta.createdAt,
  visitorIds: [...new Set([meta.visitorId, ...(meta.visitorIds ?? [])])],
  ...(meta.userId ? { userId: meta.userId } : {}),
});

const isMessage = (item: ConversationItem) => item.sk.startsWith('message#');
const isAction = (item: ConversationItem) => item.sk.startsWith('action#');

/** Every item of the planned conversations. */
export const findConversations = (deps: Deps, plan: PlannedConversation[]): Promise<FoundConversation[]> =>
  Promise.all(plan.map(async (planned) => ({ planned, items: await queryConversationItems(deps, planned.conversationId) })));

/** What the visitor wrote, by agent: what finds the questions they left unanswered. */
export const visitorMessages = (found: FoundConversation[]): { agentId: string; text: string }[] =>
  found.flatMap(({ planned, items }) =>
    items.filter((item) => isMessage(item) && item.role === 'user').map((item) => ({ agentId: planned.agentId, text: String(item.content) })),
  );

export const conversationCounts = (found: FoundConversation[]) => ({
  conversations: found.length,
  messages: found.reduce((sum, { items }) => sum + items.filter(isMessage).length, 0),
  pending_actions: found.reduce((sum, { items }) => sum + items.filter(isAction).length, 0),
});

const toMessage = (item: ConversationItem): TranscriptMessage => {
  const { messageId, role, content, createdAt, author, event, stopped } = item as unknown as TranscriptMessage & { messageId: string };
  return { seq: seqOf(messageId), role, content, createdAt, ...(author ? { author } : {}), ...(event ? { event } : {}), ...(stopped ? { stopped } : {}) };
};

const toAction = (item: ConversationItem): ExportedAction => ({
  id: item.sk.slice('action#'.length),
  toolName: String(item.toolName),
  summary: String(item.summary),
  input: JSON.parse(String(item.input)) as Record<string, unknown>,
  expiresAt: new Date(Number(item.expiresAtMs)).toISOString(),
});

/** The found conversations with their whole transcripts; one erased meanwhile is left out. */
export const exportConversations = (found: FoundConversation[]): ExportedConversation[] =>
  found.flatMap(({ items }) => {
    const meta = items.find((item) => item.sk === 'meta') as unknown as ConversationMetaItem | undefined;
    if (!meta || meta.erasedAt) return [];
    return [{ summary: toSummary(meta), messages: items.filter(isMessage).map(toMessage), pendingActions: items.filter(isAction).map(toAction) }];
  });

/**
 * An erasure's first removal: each conversation's `meta` item becomes a tombstone, so nothing writes to it any more
 * (410 CONVERSATION_ERASED), its live streams hear of it, and the inboxes drop it from their lists.
 */
export async function tombstoneConversations(deps: Deps, workspaceId: string, plan: PlannedConversation[], erasedAt: string): Promise<void> {
  for (const conversation of plan) await putErasedTombstone(deps, { ...conversation, workspaceId }, erasedAt);
  plan.forEach((conversation) => announceConversation(conversation.conversationId));
  for (const conversation of plan) await noteInboxChange(deps, workspaceId, conversation.conversationId);
}

/** An erasure's last removal: the conversations' items (the tombstone stays), their agent-list entries and the visitors' pointers. */
export async function eraseConversationItems(deps: Deps, workspaceId: string, found: FoundConversation[]): Promise<void> {
  for (const { planned, items } of found) {
    await Promise.all(items.filter((item) => item.sk !== 'meta').map((item) => deleteConversationItem(deps, item)));
    const { conversationId, agentId, createdAt, visitorIds, userId } = planned;
    await Promise.all([
      deleteConversationItem(deps, agentRefKey(agentId, createdAt, conversationId)),
      ...visitorIds.map((visitorId) => deleteVisitorPointer(deps, workspaceId, { visitorId }, conversationId)),
      ...(userId
        ? [deleteVisitorPointer(deps, workspaceId, { userId }, conversationId), deleteUserPointerIf(deps, userKey(agentId, userId), conversationId)]
        : []),
    ]);
  }
}

/** Every conversation `meta` item of the agent, page by page (the retention sweeper's round). */
export async function* agentConversationMetas(deps: Deps, agentId: string, page: number): AsyncGenerator<ConversationMetaItem> {
  let cursor: string | undefined;
  do {
    const { refs, next } = await queryAgentConversationRefs(deps, agentId, page, cursor);
    if (refs.length > 0)
      yield* (
        await getConversationMetas(
          deps,
          refs.map(({ ref }) => ref),
        )
      ).values();
    cursor = next ?? undefined;
  } while (cursor);
}

/** Stamps every item of the conversation, its list entry and its pointers with the expiry `expires` (epoch seconds; undefined: none). */
export async function restampConversation(deps: Deps, workspaceId: string, meta: ConversationMetaItem, expires: number | undefined): Promise<void> {
  const planned = plannedFrom(meta);
  const pointers = [...planned.visitorIds.map((visitorId) => ({ visitorId })), ...(planned.userId ? [{ userId: planned.userId }] : [])];
  const items = await queryConversationItems(deps, meta.conversationId);
  await Promise.all([
    // Pending actions keep their own short expiry.
    ...items.filter(isMessage).map((item) => stampExpiry(deps, item, expires)),
    stampExpiry(deps, agentRefKey(meta.agentId, meta.createdAt, meta.conversationId), expires),
    ...pointers.map((who) => stampExpiry(deps, visitorPointerKey(workspaceId, who, meta.conversationId), expires)),
    ...(planned.userId ? [stampExpiry(deps, userKey(meta.agentId, planned.userId), expires, meta.conversationId)] : []),
  ]);
  // The meta item last: a crash before it leaves the conversation to be stamped again next round.
  await stampExpiry(deps, { conversationId: meta.conversationId, sk: 'meta' }, expires);
}
