import type { Deps } from '../../../infra/deps';
import { endWaitingRun } from '../approvals';
import {
  endUnacknowledgedStop,
  ensureEnqueued,
  failLapsed,
  failRun,
  holdLapsed,
  listPendingRuns,
  noRetakeReason,
  RUN_LEASE_MS,
  runMessage,
  type StoredRun,
} from '../runs';

/**
 * Finishes runs a crash left behind. A `queued` run whose message was never sent (the API died between the two
 * writes) is enqueued; a queued run still waiting long after its message went out is failed with the reason. A
 * `running` run whose lease lapsed (its runner died) gets a fresh message, so that a runner takes it up again, unless
 * it had begun acting or used its attempts: that one is failed with the reason, never run twice; one asked to stop ends cancelled. A failed run's
 * message is sent once more so that the runner records the failure's follow-ups (the `failed` webhook). A run whose
 * approval expired unanswered ends cancelled with the reason, its message sent the same way.
 * Scheduled in AWS by an EventBridge rule on the sweeper handler; the local platform runs it on a timer.
 */
export interface SweepBounds {
  /** A queued run not marked sent is (re-)enqueued once it is this old: the API sends unmarked, beside the write. */
  unsentAfterMs: number;
  /** A run waiting this long after it was sent (or, taken before leases, running this long) is failed: it was lost. */
  stalledAfterMs: number;
  /**
   * Candidates read per status and sweep, oldest first. Runs held by live runners are candidates too (only the read
   * tells a lapsed lease from a live one): with too few, a restart after a crash that left more runs than this would
   * see the oldest, taken up again and running, at every sweep, and never reach the newer ones.
   */
  batch: number;
}

export const DEFAULT_SWEEP_BOUNDS: SweepBounds = { unsentAfterMs: 60_000, stalledAfterMs: 15 * 60_000, batch: 2_000 };

export interface SweepReport {
  /** Runs whose message was sent again: never sent, or their runner died. */
  enqueued: string[];
  failed: string[];
  /** Runs whose approval expired: they ended cancelled. */
  expired: string[];
}

const ageOf = (now: Date, iso: string | undefined) => (iso ? now.getTime() - Date.parse(iso) : Number.POSITIVE_INFINITY);

/** Sends the message of a run ended here, for its follow-ups. */
async function endedHere(deps: Deps, run: StoredRun, settled: Promise<boolean>): Promise<boolean> {
  if (!(await settled)) return false;
  await deps.queue.send('runs', runMessage(run));
  return true;
}

export async function sweepRuns(deps: Deps, bounds: SweepBounds = DEFAULT_SWEEP_BOUNDS): Promise<SweepReport> {
  const now = deps.now();
  const report: SweepReport = { enqueued: [], failed: [], expired: [] };
  const olderThan = (ms: number) => new Date(now.getTime() - ms);
  for (const run of await listPendingRuns(deps, 'queued', olderThan(bounds.unsentAfterMs), bounds.batch)) {
    if (!run.enqueuedAt) {
      await ensureEnqueued(deps, run);
      report.enqueued.push(run.runId);
    } else if (
      ageOf(now, run.enqueuedAt) > bounds.stalledAfterMs &&
      (await endedHere(deps, run, failRun(deps, run.runId, 'The run waited in the queue too long; its message was lost')))
    ) {
      report.failed.push(run.runId);
    }
  }
  // A lease is taken after the run was created, so only runs older than one lease can have lapsed.
  for (const run of await listPendingRuns(deps, 'running', olderThan(RUN_LEASE_MS), bounds.batch)) {
    if (!holdLapsed(run, now, bounds.stalledAfterMs)) continue;
    // Asked to stop, and its runner is gone: it ends cancelled, never runs again.
    if (run.cancelRequestedAt) {
      await endUnacknowledgedStop(deps, run.runId);
      continue;
    }
    const refusal = noRetakeReason(run);
    if (refusal === undefined) {
      await deps.queue.send('runs', runMessage(run));
      report.enqueued.push(run.runId);
    } else if (await endedHere(deps, run, failLapsed(deps, run, refusal))) {
      report.failed.push(run.runId);
    }
  }
  for (const run of await listPendingRuns(deps, 'requires_action', now, bounds.batch)) {
    const expiresAt = run.pendingAction?.expiresAt;
    if (
      expiresAt &&
      expiresAt <= now.toISOString() &&
      (await endedHere(
        deps,
        run,
        endWaitingRun(
          deps,
          run.runId,
          'approval_expired',
          `Nobody approved or rejected ${run.pendingAction!.capability} by ${expiresAt}; the run ended without it`,
        ),
      ))
    ) {
      report.expired.push(run.runId);
    }
  }
  return report;
}
