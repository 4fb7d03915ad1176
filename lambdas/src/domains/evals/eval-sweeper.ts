import type { Deps } from '../../infra/deps';
import { EVAL_QUIET_MS } from './attempts';
import { queryPendingEvalRuns } from './eval-run-repository';
import type { EvalMessage } from './eval-runs';

/** A queued eval run not taken this long after it was stored lost its message (the API died between the two). */
const UNSENT_AFTER_MS = 60_000;
const BATCH = 50;

/**
 * Eval runs a crash left behind get their message again: a queued one never taken (its message was never sent), and a
 * running one whose attempt went quiet (it died, and the queue will not hand the message out again soon). The eval
 * runner goes on from the stored results, or fails a run out of attempts, so none stays unfinished. Run with the run
 * sweeper (every minute in AWS, the local platform's timer).
 */
export async function sweepEvalRuns(deps: Deps): Promise<string[]> {
  const now = deps.now().getTime();
  const before = (ms: number) => new Date(now - ms).toISOString();
  const [queued, running] = await Promise.all([
    queryPendingEvalRuns(deps, 'queued', before(UNSENT_AFTER_MS), BATCH),
    queryPendingEvalRuns(deps, 'running', before(EVAL_QUIET_MS), BATCH),
  ]);
  const stranded = [...queued, ...running.filter((run) => !run.touchedAt || run.touchedAt < before(EVAL_QUIET_MS))];
  for (const run of stranded) await deps.queue.send('evals', { evalRunId: run.evalRunId } satisfies EvalMessage);
  return stranded.map((run) => run.evalRunId);
}
