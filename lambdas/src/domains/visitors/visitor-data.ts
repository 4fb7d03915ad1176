import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { scanStoredResponsesMentioning } from '../../infra/store/idempotency';
import { readConversationMeta, type ConversationMetaItem } from '../conversations/repository';
import { queryConversationItems, queryVisitorConversationIds, type ConversationItem, type VisitorKey } from '../conversations/visitor-data-repository';
import { normalisedQuestion } from '../knowledge/unanswered';
import { queryUnanswered, type StoredUnanswered } from '../knowledge/unanswered-repository';
import { recordsFromConversations } from '../records/records';
import type { StoredRecord } from '../records/repository';
import { scanDeliveriesMentioning, type DeliveryTrace } from '../webhooks/delivery-repository';
import type { ErasureCounts, PlannedConversation } from './erasure-repository';

/**
 * Everything stored about a visitor, found from their conversations: what visitors/export answers and what an erasure
 * removes. Conversations come from the visitor's pointers (one Query); what derives from them is found by the
 * conversation ids (contacts the agent created there), by a filtered scan for their ids (webhook payloads, stored
 * replies), and by the text of their messages (unanswered questions).
 */

/** How many conversations one export or erasure covers; a visitor with more is refused rather than half done. */
export const MAX_VISITOR_CONVERSATIONS = 500;

export interface FoundConversation {
  planned: PlannedConversation;
  /** Every item of its partition: `meta` (a tombstone once erased), `message#…`, `action#…`. */
  items: ConversationItem[];
}

export interface FoundVisitorData {
  conversations: FoundConversation[];
  contacts: StoredRecord<Record<string, unknown>>[];
  deliveries: DeliveryTrace[];
  /** Keys of idempotency records whose stored reply names the visitor. */
  responses: string[];
  unanswered: StoredUnanswered[];
}

/** The visitor's conversations in the workspace (not erased ones), as an erasure plans them. */
export async function visitorConversations(deps: Deps, workspaceId: string, who: VisitorKey): Promise<PlannedConversation[]> {
  const ids = await queryVisitorConversationIds(deps, workspaceId, who);
  if (ids.length > MAX_VISITOR_CONVERSATIONS) {
    throw new DomainError('VALIDATION_ERROR', `This visitor has ${ids.length} conversations; at most ${MAX_VISITOR_CONVERSATIONS} are exported or erased at once`, { field: 'visitor_id' });
  }
  const metas = await Promise.all(ids.map((id) => readConversationMeta(deps, id)));
  return metas
    .filter((meta): meta is ConversationMetaItem => meta !== undefined && meta.workspaceId === workspaceId && !meta.erasedAt)
    .map(plannedFrom);
}

/** A conversation as an erasure plans it, from its `meta` item. */
export const plannedFrom = (meta: ConversationMetaItem): PlannedConversation => ({
  conversationId: meta.conversationId,
  agentId: meta.agentId,
  createdAt: meta.createdAt,
  visitorIds: [...new Set([meta.visitorId, ...(meta.visitorIds ?? [])])],
  ...(meta.userId ? { userId: meta.userId } : {}),
});

/** What mentions these conversations or their visitors in another table's text. */
function needlesOf(plan: PlannedConversation[]): string[] {
  const needles = plan.flatMap((conversation) => [
    conversation.conversationId,
    ...conversation.visitorIds,
    // A verified user id may be short: it is looked for as the JSON field it travels in.
    ...(conversation.userId ? [`"verified_user_id":${JSON.stringify(conversation.userId)}`] : []),
  ]);
  return [...new Set(needles)];
}

export const isMessage = (item: ConversationItem) => item.sk.startsWith('message#');
export const isAction = (item: ConversationItem) => item.sk.startsWith('action#');

/** Everything stored about the planned conversations, wherever it is. */
export async function findVisitorData(deps: Deps, workspaceId: string, plan: PlannedConversation[]): Promise<FoundVisitorData> {
  if (plan.length === 0) return { conversations: [], contacts: [], deliveries: [], responses: [], unanswered: [] };
  const needles = needlesOf(plan);
  const [conversations, contacts, deliveries, responses, questions] = await Promise.all([
    Promise.all(plan.map(async (planned) => ({ planned, items: await queryConversationItems(deps, planned.conversationId) }))),
    recordsFromConversations<Record<string, unknown>>(deps, workspaceId, 'contact', plan.map((conversation) => conversation.conversationId)),
    scanDeliveriesMentioning(deps, needles),
    scanStoredResponsesMentioning(deps, needles),
    queryUnanswered(deps, workspaceId),
  ]);
  // An unanswered question is kept as the first wording asked: theirs when it matches one of their messages to that agent.
  const asked = new Set(
    conversations.flatMap(({ planned, items }) => items.filter((item) => isMessage(item) && item.role === 'user').map((item) => `${planned.agentId}\n${normalisedQuestion(String(item.content))}`)),
  );
  const unanswered = questions.filter((question) => asked.has(`${question.agentId}\n${normalisedQuestion(question.text)}`));
  return { conversations, contacts, deliveries, responses, unanswered };
}

/** How much of each kind was found. */
export const countsOf = (found: FoundVisitorData): ErasureCounts => ({
  conversations: found.conversations.length,
  messages: found.conversations.reduce((sum, { items }) => sum + items.filter(isMessage).length, 0),
  pending_actions: found.conversations.reduce((sum, { items }) => sum + items.filter(isAction).length, 0),
  contacts: found.contacts.length,
  webhook_deliveries: found.deliveries.length,
  stored_responses: found.responses.length,
  unanswered_questions: found.unanswered.length,
});
