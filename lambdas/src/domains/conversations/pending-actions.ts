import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { takePendingActionItem } from './pending-action-repository';

/**
 * A widget visitor's pending actions (the confirm card): an action a reply asked for waits, server-side and for a
 * while, for the visitor's Confirm or Decline; and each conversation's count of tool calls against its limit.
 */
export { countConversationToolCall, storePendingAction, type PendingAction } from './pending-action-repository';

/** The action the visitor decided on, taken once; NOT_FOUND when it is gone (decided already, expired, or another conversation's). */
export async function takePendingAction(deps: Deps, conversationId: string, actionId: string) {
  const action = await takePendingActionItem(deps, conversationId, actionId);
  if (!action) throw new DomainError('NOT_FOUND', 'This action is no longer waiting for a decision', { field: 'actionId' });
  return action;
}
