import type { Deps } from '../../infra/deps';
import { DomainError } from '@service/shared';
import { readConversation } from '../conversations/conversation-state';
import {
  conversationCounts,
  findConversations,
  MAX_VISITOR_CONVERSATIONS,
  plannedFrom,
  visitorConversations,
  visitorMessages,
  type FoundConversation,
  type PlannedConversation,
  type VisitorKey,
} from '../conversations/visitor-conversations';
import { conversationsOfAddress } from '../mail/visitor-data';
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
export const NOTHING_FOUND: ErasureCounts = {
  conversations: 0,
  messages: 0,
  pending_actions: 0,
  contacts: 0,
  webhook_deliveries: 0,
  stored_responses: 0,
  unanswered_questions: 0,
  mails: 0,
  mail_files: 0,
};

/** Who an export or erasure is about: a widget visitor or verified user (their pointers), or an e-mail customer's address. */
export type VisitorTarget = VisitorKey | { email: string };

/**
 * The visitor's conversations: a widget visitor's by their pointers; an e-mail customer's are those their mails
 * joined (the mail domain finds them by address).
 */
export async function targetConversations(deps: Deps, workspaceId: string, who: VisitorTarget): Promise<PlannedConversation[]> {
  if (!('email' in who)) return visitorConversations(deps, workspaceId, who);
  const ids = await conversationsOfAddress(deps, workspaceId, who.email);
  if (ids.length > MAX_VISITOR_CONVERSATIONS)
    throw new DomainError(
      'VALIDATION_ERROR',
      `This address has ${ids.length} conversations; at most ${MAX_VISITOR_CONVERSATIONS} are exported or erased at once`,
      { field: 'email' },
    );
  // An erased or vanished conversation is not planned again.
  const planned = await Promise.all(ids.map((id) => readConversation(deps, workspaceId, id).then(plannedFrom, () => undefined)));
  return planned.filter((conversation): conversation is PlannedConversation => conversation !== undefined);
}

/** Everything stored about the planned conversations (and, named by `email`, about the address), wherever it is. */
export async function findVisitorData(deps: Deps, workspaceId: string, plan: PlannedConversation[], email?: string): Promise<FoundVisitorData> {
  if (plan.length === 0 && email === undefined) return { conversations: [], held: [] };
  const conversations = await findConversations(deps, plan);
  const scope = { workspaceId, conversations: plan, messages: visitorMessages(conversations), ...(email !== undefined ? { email } : {}) };
  return { conversations, held: await Promise.all(VISITOR_DATA_OWNERS.map((owner) => owner.find(deps, scope))) };
}

/** How much of each kind was found. */
export const countsOf = (found: FoundVisitorData): ErasureCounts =>
  Object.assign({ ...NOTHING_FOUND }, conversationCounts(found.conversations), ...found.held.map((held) => held.counts));
