import type { Deps } from '../../infra/deps';
import { toSummary, type ConversationSummary, type TranscriptMessage } from '../conversations/agent-conversations';
import { seqOf, type ConversationMetaItem } from '../conversations/repository';
import type { ConversationItem, VisitorKey } from '../conversations/visitor-data-repository';
import type { DeliveryTrace } from '../webhooks/delivery-repository';
import { findVisitorData, isAction, isMessage, visitorConversations } from './visitor-data';

/** Everything stored about a visitor (visitors/export), each conversation with its whole transcript. */
export interface VisitorExportData {
  conversations: { summary: ConversationSummary; messages: TranscriptMessage[]; pendingActions: ExportedAction[] }[];
  contacts: Record<string, unknown>[];
  deliveries: Required<Pick<DeliveryTrace, 'subscriptionId' | 'eventId' | 'event' | 'createdAt' | 'payload'>>[];
}

export interface ExportedAction {
  id: string;
  toolName: string;
  summary: string;
  input: Record<string, unknown>;
  expiresAt: string;
}

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

export async function exportVisitor(deps: Deps, workspaceId: string, who: VisitorKey): Promise<VisitorExportData> {
  const found = await findVisitorData(deps, workspaceId, await visitorConversations(deps, workspaceId, who));
  return {
    conversations: found.conversations.flatMap(({ items }) => {
      const meta = items.find((item) => item.sk === 'meta') as unknown as ConversationMetaItem | undefined;
      // Erased meanwhile: nothing of it is exported.
      if (!meta || meta.erasedAt) return [];
      return [{ summary: toSummary(meta), messages: items.filter(isMessage).map(toMessage), pendingActions: items.filter(isAction).map(toAction) }];
    }),
    contacts: found.contacts.map((contact) => contact.fields),
    deliveries: found.deliveries.flatMap((trace) =>
      trace.kind === 'delivery' && trace.payload !== undefined ? [{ subscriptionId: trace.subscriptionId, eventId: trace.eventId, event: trace.event, createdAt: trace.createdAt, payload: trace.payload }] : [],
    ),
  };
}
