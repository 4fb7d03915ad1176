import { schemas } from '@service/shared';
import type { z } from 'zod';
import type { Deps } from '../../../infra/deps';
import { logger } from '../../../infra/logger';
import { lastStepSeq, putStepItems, textPiecesPartition, type StepItem } from './repository';
import { announceSteps } from './step-signal';

type RunStep = z.input<typeof schemas.RunStep>;
type TextPiece = z.input<typeof schemas.TextDelta>;
/** A step before the log numbers it. */
export type NewStep = RunStep extends infer S ? (S extends RunStep ? Omit<S, 'seq'> : never) : never;

/**
 * How long a recorded step waits for others to share its write: a run's quick turns (tool calls, a model answering
 * from what it has) go in one write, and a watcher still sees each step within this of its happening.
 */
const WRITE_DELAY_MS = 25;

/**
 * A run's steps as its runner records them: numbered from 1 (0 is the run being queued), and written in the
 * background a batch at a time (what accumulated over WRITE_DELAY_MS, or while the previous batch was being written),
 * so the model never waits on the store and a quick run costs one write. `flush` writes what is left and waits for it.
 */
export interface StepLog {
  record(...steps: NewStep[]): void;
  /**
   * A piece of the turn being written (text-deltas.ts), stored beside the steps. Recording a step drops the pieces
   * not yet being written: the step ends the turn, and the stream tells its text's rest from the text step itself.
   */
  recordTextPiece(piece: TextPiece): void;
  /** Starts writing what was recorded now, without waiting for more (the run's last turn). */
  writeNow(): void;
  flush(): Promise<void>;
  /** The last seq recorded: the run's stored steps, a later attempt's including those of the attempts before it. */
  readonly count: number;
}

/**
 * Opens the log of an attempt at the run, recording `first` and then the run's `running` status. A later attempt (its
 * runner before it died or gave the run back) and a run resumed after an approval go on after the steps already
 * stored, so the timeline keeps them all and no seq is written twice; a first attempt reads nothing. `run` is as
 * this attempt took it: its `attempts` count this one.
 */
export async function openStepLog(deps: Deps, run: { runId: string; attempts?: number; conversationJson?: string }, first: NewStep[] = []): Promise<StepLog> {
  const { runId } = run;
  const piecesPartition = textPiecesPartition(runId);
  let seq = (run.attempts ?? 1) > 1 || run.conversationJson ? await lastStepSeq(deps, runId) : 0;
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
        // Its text pieces are dropped: a later step must never share a write with them (see recordTextPiece).
        pending = [...batch.filter((item) => item.runId === runId), ...pending];
        return;
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const startWriting = () => {
    clearTimeout(timer);
    timer = undefined;
    writing ??= writeAll().finally(() => (writing = undefined));
    return writing;
  };
  const log: StepLog = {
    record(...steps) {
      pending = pending.filter((item) => item.runId === runId);
      pending.push(...steps.map((step) => ({ runId, seq: (seq += 1), step: JSON.stringify({ ...step, seq }) })));
      timer ??= setTimeout(() => void startWriting(), WRITE_DELAY_MS);
    },
    recordTextPiece(piece) {
      pending.push({ runId: piecesPartition, seq: schemas.runEventPosition(piece.after_seq, piece.index), step: JSON.stringify(piece) });
      timer ??= setTimeout(() => void startWriting(), WRITE_DELAY_MS);
    },
    writeNow: () => void startWriting(),
    async flush() {
      await writing;
      if (pending.length > 0) await startWriting();
    },
    get count() {
      return seq;
    },
  };
  log.record(...first, { type: 'status', status: 'running', at: deps.now().toISOString() });
  return log;
}
