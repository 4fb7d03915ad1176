import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { sourcesInLane } from './source-repository';
import { requestSync, STALLED_SYNC_MS } from './sync';

/**
 * The knowledge scheduler's tick (the local platform's timer; an EventBridge schedule in AWS): starts the syncs that
 * are due, and starts again those that stalled (a crash lost their messages): a sync whose pages were all done or
 * lost is started afresh under a new sync id, and pages indexed since keep their content hash, so nothing is indexed
 * twice. Answers how many syncs it started.
 */
export async function syncDueSources(deps: Deps): Promise<number> {
  const now = deps.now();
  const [due, stalled] = await Promise.all([
    sourcesInLane(deps, 'due', now.toISOString()),
    sourcesInLane(deps, 'running', new Date(now.getTime() - STALLED_SYNC_MS).toISOString()),
  ]);
  let started = 0;
  for (const source of [...due, ...stalled]) {
    try {
      await requestSync(deps, source.workspaceId, source.id);
      started += 1;
    } catch (error) {
      logger.error('knowledge: a scheduled sync could not start', { sourceId: source.id, error });
    }
  }
  return started;
}
