import { performance } from 'node:perf_hooks';
import type { Deps } from '../../../infra/deps';
import { logger } from '../../../infra/logger';
import { markActing, renewLease, RUN_HEARTBEAT_MS, type RunLease } from '../runs';

/** The run is no longer this runner's: another runner took it over, or the sweeper failed it. */
export class LeaseLost extends Error {}

/** A runner's hold on a run while it works on it. */
export interface HeldRun {
  /** Aborts the work once the lease is lost. */
  signal: AbortSignal;
  /** Awaited before each action: records the first one under the lease, and throws LeaseLost when the lease is gone. */
  beforeAction(): Promise<void>;
  /** True once the run began acting (it must not be run again from the start). */
  readonly acted: boolean;
  readonly lost: boolean;
  /** Stops the heartbeat. */
  release(): void;
}

/**
 * Renews the lease every RUN_HEARTBEAT_MS until released; a renewal that finds the lease taken aborts the work, and
 * `onRenewed` hears whether the renewal (issued at `issuedAt`, performance.now()) found a stop asked for.
 */
export function holdRun(deps: Deps, lease: RunLease, onRenewed?: (cancelRequested: boolean, issuedAt: number) => void): HeldRun {
  const controller = new AbortController();
  let acted = false;
  const lose = () => {
    if (!controller.signal.aborted) controller.abort(new LeaseLost(`run ${lease.runId} was taken over or ended while this runner worked on it`));
  };
  const heartbeat = setInterval(() => {
    const issuedAt = performance.now();
    renewLease(deps, lease).then(
      (renewed) => (renewed ? onRenewed?.(renewed.cancelRequested, issuedAt) : lose()),
      // A renewal that failed (the store briefly unreachable) is tried again on the next beat; the lease outlives several.
      (error: unknown) => logger.warn('run lease renewal failed', { runId: lease.runId, error }),
    );
  }, RUN_HEARTBEAT_MS);
  return {
    signal: controller.signal,
    async beforeAction() {
      if (controller.signal.aborted) throw controller.signal.reason;
      if (acted) return;
      if (!(await markActing(deps, lease))) {
        lose();
        throw controller.signal.reason;
      }
      acted = true;
    },
    get acted() {
      return acted;
    },
    get lost() {
      return controller.signal.aborted;
    },
    release: () => clearInterval(heartbeat),
  };
}
