import type { Deps } from '../../infra/deps';
import type { PlannedConversation } from '../conversations/visitor-conversations';
import { ratingCommentsOfVisitor } from '../insights/visitor-data';
import { unansweredOfVisitor } from '../knowledge/visitor-data';
import { contactsOfVisitor } from '../records/visitor-data';
import { mailsOfVisitor, type ExportedMail } from '../mail/visitor-data';
import { webhookDeliveriesOfVisitor } from '../webhooks/visitor-data';
import type { ErasureCounts } from './erasure-repository';
import { storedResponsesOfVisitor } from './stored-responses';

/**
 * Every domain that keeps something derived from a visitor's conversations finds, exports and erases it itself,
 * behind this one interface; visitors/ only orchestrates (finds the conversations, calls each owner, records the
 * erasure). A new kind of visitor data is one more owner in VISITOR_DATA_OWNERS.
 */
export interface VisitorScope {
  workspaceId: string;
  conversations: PlannedConversation[];
  /** What the visitor wrote in them, by agent. */
  messages: { agentId: string; text: string }[];
  /** The address the visitor was named by (visitors/export or erase with `email`): what an owner keeps by address. */
  email?: string;
}

/** What an owner holds about the visitor, found once: how much (the erasure's counts), what export shows, and how it goes. */
export interface HeldVisitorData {
  counts: Partial<ErasureCounts>;
  exported?: Partial<VisitorExportSections>;
  /** Removes it; each removal tolerates "already gone", so a retried erasure runs it again harmlessly. */
  erase(): Promise<void>;
}

export interface VisitorDataOwner {
  find(deps: Deps, scope: VisitorScope): Promise<HeldVisitorData>;
}

/** The sections of an export the owners fill. */
export interface VisitorExportSections {
  contacts: Record<string, unknown>[];
  deliveries: { subscriptionId: string; eventId: string; event: string; createdAt: string; payload: string }[];
  mails: ExportedMail[];
}

/** Everything derived from a visitor's conversations, owner by owner; their conversations themselves are the conversations domain's. */
export const VISITOR_DATA_OWNERS = [
  contactsOfVisitor,
  webhookDeliveriesOfVisitor,
  storedResponsesOfVisitor,
  unansweredOfVisitor,
  ratingCommentsOfVisitor,
  mailsOfVisitor,
] as const satisfies readonly VisitorDataOwner[];
