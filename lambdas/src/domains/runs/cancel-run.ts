import { DomainError } from '@service/shared';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Deps } from '../../infra/deps';
import { endWaitingRun } from './approvals';
import { cancelQueuedRun, endUnacknowledgedStop, getRun, requestRunStop, RUN_HEARTBEAT_MS, type StoredRun } from './runs';

/** How long agents/command_cancel waits for a running run's runner to stop: its heartbeat tells it within one beat. */
export const STOP_ACKNOWLEDGE_MS = RUN_HEARTBEAT_MS * 2;
const POLL_MS = 100;

const notCancellable = (run: StoredRun) =>
  new DomainError('RUN_NOT_CANCELLABLE', `The run already ${run.status === 'completed' ? 'completed' : 'failed'}; it cannot be cancelled`, { field: 'run_id' });

/** A run waiting for approval ends at once; its message follows, for its usage so far and its webhook. */
async function cancelWaitingRun(deps: Deps, runId: string, by: string): Promise<boolean> {
  if (!(await endWaitingRun(deps, runId, by))) return false;
  await deps.queue.send('runs', { runId });
  return true;
}

/**
 * Stops a run of the workspace and answers it `cancelled`. A queued run, or one waiting for approval, is cancelled at
 * once and never starts again. A
 * running one is asked to stop (its runner checks before every model turn and tool call, and its heartbeat cuts a
 * step under way short), then this waits for the runner to end it with what it produced so far; a runner that does
 * not within STOP_ACKNOWLEDGE_MS (it died, or is stuck in a step) has the run ended here. Either way no further step
 * starts once this has answered. A cancelled run answers as it is (a retried cancel); a finished one is
 * RUN_NOT_CANCELLABLE. `by`: `api_key`, `mcp`, or the member's user id.
 */
export async function cancelRun(deps: Deps, workspaceId: string, runId: string, by: string): Promise<StoredRun> {
  let run = await getRun(deps, workspaceId, runId);
  // A run may move between queued and running while it is cancelled (taken, or given back): try again from what it is.
  for (
    let attempt = 0;
    attempt < 3 && (run.status === 'queued' || run.status === 'running' || run.status === 'requires_action') && !run.cancelRequestedAt;
    attempt += 1
  ) {
    const recorded =
      run.status === 'queued'
        ? await cancelQueuedRun(deps, runId, by)
        : run.status === 'requires_action'
          ? await cancelWaitingRun(deps, runId, by)
          : await requestRunStop(deps, runId, by);
    run = await getRun(deps, workspaceId, runId);
    if (recorded) break;
  }
  const deadline = Date.now() + STOP_ACKNOWLEDGE_MS;
  while (run.status === 'running' && run.cancelRequestedAt && Date.now() < deadline) {
    await sleep(POLL_MS);
    run = await getRun(deps, workspaceId, runId);
  }
  if (run.status === 'running' && run.cancelRequestedAt) {
    await endUnacknowledgedStop(deps, runId);
    run = await getRun(deps, workspaceId, runId);
  }
  if (run.status === 'completed' || run.status === 'failed') throw notCancellable(run);
  if (run.status !== 'cancelled') throw new Error(`run ${runId} is still ${run.status} after it was cancelled`);
  return run;
}
