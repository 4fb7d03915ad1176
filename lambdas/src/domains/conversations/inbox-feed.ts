import type { Deps } from '../../infra/deps';
import { inProcessSignals } from '../../infra/signals';
import { logger } from '../../infra/logger';
import { appendInboxChange } from './inbox-feed-repository';

/** In-process news that a workspace's inbox feed grew (see infra/signals.ts): the workspace's watch reads at once. */
const signals = inProcessSignals();
export const onInboxChange = signals.on;

/**
 * Tells the workspace's inbox that a conversation changed (a new one, an entry, a change of hands; `readerId`: that
 * teammate's read marker moved), after the change itself is stored. The feed only tells the inboxes: a failure is
 * logged and the change stands (an inbox reads its list again whenever its stream starts over).
 */
export async function noteInboxChange(deps: Deps, workspaceId: string, conversationId: string, readerId?: string): Promise<void> {
  try {
    await appendInboxChange(deps, workspaceId, { conversationId, ...(readerId ? { readerId } : {}) });
    signals.announce(workspaceId);
  } catch (error) {
    logger.warn('inbox feed: a change was not noted', { workspaceId, conversationId, error });
  }
}
