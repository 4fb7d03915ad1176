import type { Deps } from '../../../infra/deps';
import { ensureEnqueued, failRun, listPendingRuns, type StoredRun } from '../runs';

/**
 * Finishes runs a crash left behind. A `queued` run whose message was never sent (the API died between the two
 * writes) is enqueued; a run still `queued` or `running` long after its message went out is failed with the reason,
 * and its message is sent once more so that the runner records the failure's follow-ups (the `failed` webhook).
 * Scheduled in AWS by an EventBridge rule on the sweeper handler; the local platform runs it on a timer.
 */
export interface SweepBounds {
  /** A queued run not marked sent is (re-)enqueued once it is this old: the API sends unmarked, beside the write. */
  unsentAfterMs: number;
  /** A run waiting or running this long after it was sent or started is failed: the runner lost it. */
  stalledAfterMs: number;
  /** Candidates read per status and sweep. */
  batch: number;
}

export const DEFAULT_SWEEP_BOUNDS: SweepBounds = { unsentAfterMs: 60_000, stalledAfterMs: 15 * 60_000, batch: 100 };

export interface SweepReport {
  enqueued: string[];
  failed: string[];
}

const ageOf = (now: Date, iso: string | undefined) => (iso ? now.getTime() - Date.parse(iso) : Number.POSITIVE_INFINITY);

async function failStalled(deps: Deps, run: StoredRun, reason: string): Promise<boolean> {
  if (!(await failRun(deps, run.runId, reason))) return false;
  await deps.queue.send('runs', { runId: run.runId });
  return true;
}

export async function sweepRuns(deps: Deps, bounds: SweepBounds = DEFAULT_SWEEP_BOUNDS): Promise<SweepReport> {
  const now = deps.now();
  const report: SweepReport = { enqueued: [], failed: [] };
  const olderThan = (ms: number) => new Date(now.getTime() - ms);
  for (const run of await listPendingRuns(deps, 'queued', olderThan(bounds.unsentAfterMs), bounds.batch)) {
    if (!run.enqueuedAt) {
      await ensureEnqueued(deps, run);
      report.enqueued.push(run.runId);
    } else if (ageOf(now, run.enqueuedAt) > bounds.stalledAfterMs && (await failStalled(deps, run, 'The run waited in the queue too long; its message was lost'))) {
      report.failed.push(run.runId);
    }
  }
  for (const run of await listPendingRuns(deps, 'running', olderThan(bounds.stalledAfterMs), bounds.batch)) {
    if (ageOf(now, run.startedAt) > bounds.stalledAfterMs && (await failStalled(deps, run, 'The runner stopped before finishing the run'))) {
      report.failed.push(run.runId);
    }
  }
  return report;
}
