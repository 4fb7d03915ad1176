import type { Deps } from '../../infra/deps';
import { conversationCounts, findConversations, visitorMessages, type FoundConversation, type PlannedConversation } from '../conversations/visitor-conversations';
import type { ErasureCounts } from './erasure-repository';
import { VISITOR_DATA_OWNERS, type HeldVisitorData } from './owners';

/**
 * Everything stored about a visitor, found from their conversations: what visitors/export answers and what an erasure
 * removes. The conversations' items come from the conversations domain; what derives from them, from each owner.
 */
export interface FoundVisitorData {
  conversations: FoundConversation[];
  held: HeldVisitorData[];
}

/** The counts of an erasure that found nothing (or has not looked yet). */
export const NOTHING_FOUND: ErasureCounts = { conversations: 0, messages: 0, pending_actions: 0, contacts: 0, webhook_deliveries: 0, stored_responses: 0, unanswered_questions: 0 };

/** Everything stored about the planned conversations, wherever it is. */
export async function findVisitorData(deps: Deps, workspaceId: string, plan: PlannedConversation[]): Promise<FoundVisitorData> {
  if (plan.length === 0) return { conversations: [], held: [] };
  const conversations = await findConversations(deps, plan);
  const scope = { workspaceId, conversations: plan, messages: visitorMessages(conversations) };
  return { conversations, held: await Promise.all(VISITOR_DATA_OWNERS.map((owner) => owner.find(deps, scope))) };
}

/** How much of each kind was found. */
export const countsOf = (found: FoundVisitorData): ErasureCounts => Object.assign({ ...NOTHING_FOUND }, conversationCounts(found.conversations), ...found.held.map((held) => held.counts));
