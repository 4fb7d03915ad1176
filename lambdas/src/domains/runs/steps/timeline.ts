import type { schemas } from '@service/shared';
import type { z } from 'zod';
import type { Deps } from '../../../infra/deps';
import type { StoredRun } from '../runs';
import { waitingSteps } from '../pending-action';
import { countStepItems, queryStepItems } from './repository';

export type RunStep = z.input<typeof schemas.RunStep>;

const FINISHED: ReadonlySet<StoredRun['status']> = new Set(['completed', 'failed', 'cancelled']);
export const isFinished = (run: StoredRun) => FINISHED.has(run.status);

/**
 * The waiting steps of a run parked for approval that its runner has not stored yet (it stores them just after parking
 * the run, so that no one approves a run still running, and one that died in between never does): they are the run
 * item's own pending action, numbered as the parking counted them.
 */
function unstoredWaitingSteps(run: StoredRun, lastSeq: number): RunStep[] {
  if (run.status !== 'requires_action' || !run.pendingAction || run.stepsCount === undefined) return [];
  const waiting = waitingSteps(run.pendingAction);
  const firstSeq = run.stepsCount - waiting.length + 1;
  return waiting.map((step, index) => ({ ...step, seq: firstSeq + index }) as RunStep).filter((step) => step.seq > lastSeq);
}

/**
 * A page of a run's timeline after `afterSeq` (none: from the start). Step 0 (queued) and the final status step come
 * from the run item itself, so they cost no write: the final one follows the last stored step once the run has
 * finished; so do a waiting run's last two until they are stored. `run` must be read before the steps: a run read
 * finished has all its steps stored.
 */
export async function readTimeline(deps: Deps, run: StoredRun, afterSeq: number | undefined, limit: number): Promise<{ steps: RunStep[]; complete: boolean }> {
  const steps: RunStep[] = afterSeq === undefined ? [{ seq: 0, at: run.createdAt, type: 'status', status: 'queued' }] : [];
  const { items, more } = await queryStepItems(deps, run.runId, afterSeq ?? 0, Math.max(1, limit - steps.length));
  steps.push(...items.map((item) => JSON.parse(item.step) as RunStep));
  if (!more) steps.push(...unstoredWaitingSteps(run, items.at(-1)?.seq ?? afterSeq ?? 0).slice(0, Math.max(0, limit - steps.length)));
  if (more || !isFinished(run) || steps.length >= limit) return { steps, complete: false };
  const finalSeq = (run.stepsCount ?? items.at(-1)?.seq ?? (await countStepItems(deps, run.runId))) + 1;
  if (finalSeq > (afterSeq ?? 0))
    steps.push({ seq: finalSeq, at: run.completedAt ?? run.createdAt, type: 'status', status: run.status, error: run.error ?? null });
  return { steps, complete: true };
}

/** The number of steps of a finished run's timeline: step 0, the stored ones, the final status. */
export const timelineLength = async (deps: Deps, run: StoredRun) => (run.stepsCount ?? (await countStepItems(deps, run.runId))) + 2;

/** How many tool calls a run's stored steps record, and how many of them failed (an error thrown or answered). */
export async function toolCallTally(deps: Deps, runId: string): Promise<{ toolCalls: number; toolFailures: number }> {
  const tally = { toolCalls: 0, toolFailures: 0 };
  for (let after = 0, more = true; more;) {
    const page = await queryStepItems(deps, runId, after, 100);
    for (const item of page.items) {
      const step = JSON.parse(item.step) as RunStep;
      if (step.type !== 'tool_call') continue;
      tally.toolCalls += 1;
      if (step.error) tally.toolFailures += 1;
    }
    more = page.more;
    after = page.items.at(-1)?.seq ?? after;
  }
  return tally;
}
