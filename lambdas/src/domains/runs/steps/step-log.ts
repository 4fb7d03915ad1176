import type { schemas } from '@service/shared';
import type { z } from 'zod';
import type { Deps } from '../../../infra/deps';
import { logger } from '../../../infra/logger';
import { lastStepSeq, putStepItems, type StepItem } from './repository';
import { announceSteps } from './step-signal';

type RunStep = z.input<typeof schemas.RunStep>;
/** A step before the log numbers it. */
export type NewStep = RunStep extends infer S ? (S extends RunStep ? Omit<S, 'seq'> : never) : never;

/**
 * A run's steps as its runner records them: numbered from 1 (0 is the run being queued), and written in the
 * background a batch at a time, whatever accumulated while the previous batch was being written, so the model never
 * waits on the store and a quick run costs one or two writes. `flush` waits until everything recorded is stored.
 */
export interface StepLog {
  record(...steps: NewStep[]): void;
  flush(): Promise<void>;
  /** The last seq recorded: the run's stored steps, a later attempt's including those of the attempts before it. */
  readonly count: number;
}

/**
 * Opens the log of an attempt at the run. A later attempt (its runner before it died or gave the run back) goes on
 * after the steps already stored, so the timeline keeps both and no seq is written twice; a first attempt reads nothing.
 */
export async function openStepLog(deps: Deps, run: { runId: string; attempts?: number }): Promise<StepLog> {
  const { runId } = run;
  let seq = run.attempts ? await lastStepSeq(deps, runId) : 0;
  let pending: StepItem[] = [];
  let writing: Promise<void> | undefined;
  const writeAll = async (): Promise<void> => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        await putStepItems(deps, batch);
        announceSteps(runId);
      } catch (error) {
        // Steps describe the run; a store failure must not fail the run itself. The batch waits for the next write.
        logger.warn('run steps not written yet', { runId, error });
        pending = [...batch, ...pending];
        return;
      }
    }
  };
  const startWriting = () => {
    writing ??= writeAll().finally(() => (writing = undefined));
    return writing;
  };
  const log: StepLog = {
    record(...steps) {
      pending.push(...steps.map((step) => ({ runId, seq: (seq += 1), step: JSON.stringify({ ...step, seq }) })));
      void startWriting();
    },
    async flush() {
      await writing;
      if (pending.length > 0) await startWriting();
    },
    get count() {
      return seq;
    },
  };
  log.record({ type: 'status', status: 'running', at: deps.now().toISOString() });
  return log;
}
