import { DomainError } from '@service/shared';
import type { LiveState } from '@service/shared/live-conversation';
import type { ConversationRef } from '@service/webhooks';
import type { Deps } from '../../infra/deps';
import { readConversationMeta, type ConversationMetaItem, type Handling } from './repository';

/**
 * Who handles a conversation as its `meta` item says, and the conversation read for a caller: what the readers of
 * conversations (conversations/get, the live streams) need of handling.ts, without its writes and webhooks.
 */

export const notFound = (conversationId: string) =>
  new DomainError('CONVERSATION_NOT_FOUND', `No conversation ${conversationId} in this workspace`, { field: 'conversation_id' });

export const erased = (conversationId: string) =>
  new DomainError('CONVERSATION_ERASED', `Conversation ${conversationId} was erased (the visitor's data was erased, or it passed the retention period)`, {
    field: 'conversation_id',
  });

export const handlingOf = (meta: ConversationMetaItem): Handling => ({
  handler: meta.handler ?? 'agent',
  ...(meta.assignee ? { assignee: meta.assignee } : {}),
  ...(meta.handoff ? { handoff: meta.handoff } : {}),
});

/** Who handles it, and where the e-mail fallback stands (only once nobody was available). */
export const liveStateOf = (meta: ConversationMetaItem): LiveState => ({
  handler: meta.handler ?? 'agent',
  assignee: meta.assignee ?? null,
  ...(meta.visitorEmail ? { email: 'given' as const } : meta.emailRequest ? { email: 'requested' as const } : {}),
});

/** The conversation of the workspace (`workspaceId` undefined: the widget's own, whose caller was checked already). */
export async function readConversation(deps: Deps, workspaceId: string | undefined, conversationId: string): Promise<ConversationMetaItem> {
  const meta = await readConversationMeta(deps, conversationId);
  if (!meta || (workspaceId !== undefined && meta.workspaceId !== workspaceId)) throw notFound(conversationId);
  if (meta.erasedAt) throw erased(conversationId);
  return meta;
}

/** A widget visitor as their requests name them: the visitor id, and the verified user when the host signed one. */
export interface WidgetVisitor {
  agentId: string;
  visitorId: string;
  userId?: string | undefined;
}

/** Whether the conversation is this visitor's with this agent (by their visitor id, or as the same verified user). */
export const isVisitorsConversation = (meta: ConversationMetaItem, visitor: WidgetVisitor): boolean =>
  meta.agentId === visitor.agentId && (meta.visitorId === visitor.visitorId || (visitor.userId !== undefined && meta.userId === visitor.userId));

/** A conversation as the conversation webhooks describe it. */
export const conversationRef = (meta: ConversationMetaItem): ConversationRef => ({
  conversation_id: meta.conversationId,
  agent_id: meta.agentId,
  channel: meta.channel ?? 'widget',
  email: meta.email ?? null,
  handler: meta.handler ?? 'agent',
  assignee: meta.assignee ?? null,
  visitor: { id: meta.visitorId, verified_user_id: meta.userId ?? null },
});
