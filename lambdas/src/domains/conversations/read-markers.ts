import { DomainError } from '@service/shared';
import type { Teammate } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { readConversation } from './conversation-state';
import { conversationExpiry } from './retention';
import { advanceReadMarker } from './read-marker-repository';
import { noteInboxChange } from './inbox-feed';

/**
 * What a teammate has read (issue 29): the inbox moves their marker as it shows a conversation; a conversation's
 * unread count, for them, is its entries after the marker.
 */

/** Entries after the marker (never below 0: a marker set ahead of a count read a moment earlier). */
export const unreadAfter = (messageCount: number, readSeq: number): number => Math.max(0, messageCount - readSeq);

/** The teammate was shown the conversation up to `seq` (capped at its last entry): their marker and what is still unread. */
export async function markRead(
  deps: Deps,
  workspaceId: string,
  conversationId: string,
  teammate: Teammate | undefined,
  seq: number,
): Promise<{ readSeq: number; unread: number }> {
  if (!teammate)
    throw new DomainError('VALIDATION_ERROR', 'An API key reads for nobody: conversations/read needs a dashboard session', { field: 'conversation_id' });
  const meta = await readConversation(deps, workspaceId, conversationId);
  const count = Number(meta.messageCount ?? 0);
  const readSeq = await advanceReadMarker(deps, conversationId, teammate.id, Math.min(seq, count), await conversationExpiry(deps, workspaceId, deps.now()));
  // The teammate's other inboxes (another tab, another device) show the new count.
  await noteInboxChange(deps, workspaceId, conversationId, teammate.id);
  return { readSeq, unread: unreadAfter(count, readSeq) };
}
