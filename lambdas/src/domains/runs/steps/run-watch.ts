import { schemas } from '@service/shared';
import type { z } from 'zod';
import type { Deps } from '../../../infra/deps';
import { logger } from '../../../infra/logger';
import { findRun, toRunResponse } from '../runs';
import { onSteps } from './step-signal';
import { readTextPieces } from './text-deltas';
import { readTimeline, type RunStep } from './timeline';

type TextPiece = z.infer<typeof schemas.TextDelta>;

/**
 * One event of a run's stream: its `id:` (a step's seq, or `after_seq.index` for a text piece; the final `run` event
 * comes after the last step) and its place in the stream (schemas.runEventPosition).
 */
export interface RunEvent {
  id: string;
  position: number;
  name: string;
  data: unknown;
}

const stepEvent = (step: RunStep): RunEvent => ({ id: String(step.seq), position: schemas.runEventPosition(step.seq), name: step.type, data: step });
const pieceEvent = (piece: TextPiece): RunEvent => ({
  id: `${piece.after_seq}.${piece.index}`,
  position: schemas.runEventPosition(piece.after_seq, piece.index),
  name: 'text_delta',
  data: piece,
});

/** The poll's pace: soon after news, slower while the run is quiet (each poll is two reads, three once the run was taken: its text pieces). */
const POLL_MIN_MS = 100;
const POLL_MAX_MS = 1_000;
const PAGE = 100;

/**
 * One shared reader of a run's timeline per process, however many streams watch it: it polls the store (where the
 * runner, in any process, writes), wakes early on an in-process signal, and keeps the events read so far for every
 * stream of the run. It stops when the run has finished or no one watches.
 */
class RunWatch {
  readonly events: RunEvent[] = [];
  finished = false;
  private readonly listeners = new Set<() => void>();
  private cursor: number | undefined;
  /** The text pieces shown since the last step: the turn being written. */
  private turn = { afterSeq: -1, index: 0, text: '' };
  private wake?: () => void;
  /** News that came while a poll was reading: the next poll starts at once. */
  private woken = false;
  private stopSignal?: () => void;

  constructor(
    private readonly deps: Deps,
    private readonly runId: string,
    private readonly onIdle: () => void,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1 && !this.stopSignal) void this.loop();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.wake?.();
    };
  }

  private async loop(): Promise<void> {
    this.stopSignal = onSteps(this.runId, () => {
      this.woken = true;
      this.wake?.();
    });
    let delay = POLL_MIN_MS;
    try {
      while (this.listeners.size > 0 && !this.finished) {
        const found = await this.poll().catch((error: unknown) => (logger.warn('run stream poll failed', { runId: this.runId, error }), 0));
        this.listeners.forEach((listener) => listener());
        if (this.finished || this.listeners.size === 0) break;
        delay = found > 0 ? POLL_MIN_MS : Math.min(POLL_MAX_MS, delay * 2);
        if (this.woken) {
          this.woken = false;
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => (clearTimeout(timer), resolve());
        });
        this.wake = undefined;
        this.woken = false;
      }
    } finally {
      this.stopSignal();
      this.stopSignal = undefined;
      this.onIdle();
    }
  }

  /**
   * Reads what is new; returns how many events it added. The text pieces are read after the steps: a turn's text
   * step is stored only once its pieces are (step-log.ts), so a text step read has all its pieces readable.
   */
  private async poll(): Promise<number> {
    const run = await findRun(this.deps, this.runId);
    if (!run) return 0;
    const before = this.events.length;
    for (;;) {
      const page = await readTimeline(this.deps, run, this.cursor, PAGE);
      const pieces = run.status === 'queued' ? [] : await readTextPieces(this.deps, this.runId, schemas.runEventPosition(this.turn.afterSeq, this.turn.index));
      for (const step of page.steps) {
        this.showPieces(pieces);
        if (step.type === 'text') this.showRest(step.text);
        this.events.push(stepEvent(step));
        this.turn = { afterSeq: step.seq, index: 0, text: '' };
      }
      this.showPieces(pieces);
      this.cursor = page.steps.at(-1)?.seq ?? this.cursor;
      if (page.complete) {
        const seq = (this.cursor ?? 0) + 1;
        this.events.push({ id: String(seq), position: schemas.runEventPosition(seq), name: 'run', data: toRunResponse(run) });
        this.finished = true;
      }
      if (page.complete || page.steps.length < PAGE) break;
    }
    return this.events.length - before;
  }

  /** Shows the pieces that continue the turn after the last step shown, in order and without a gap. */
  private showPieces(pieces: TextPiece[]): void {
    for (const piece of pieces) {
      if (piece.after_seq !== this.turn.afterSeq || piece.index !== this.turn.index + 1) continue;
      this.events.push(pieceEvent(piece));
      this.turn = { ...this.turn, index: piece.index, text: this.turn.text + piece.text };
    }
  }

  /** The rest of a finished turn's text that no stored piece showed (its last moments: see text-deltas.ts), as its last piece. */
  private showRest(text: string): void {
    if (!text.startsWith(this.turn.text) || text.length === this.turn.text.length) return;
    this.showPieces([{ after_seq: this.turn.afterSeq, index: this.turn.index + 1, text: text.slice(this.turn.text.length) }]);
  }
}

const watches = new Map<string, RunWatch>();

/**
 * Follows a run's events: `deliver` is called with the events after stream position `after` as they arrive, and
 * `done` once the final `run` event was delivered. Returns the way to stop following.
 */
export function followRun(deps: Deps, runId: string, after: number, deliver: (events: RunEvent[]) => void, done: () => void): () => void {
  let watch = watches.get(runId);
  if (!watch) {
    const created: RunWatch = new RunWatch(deps, runId, () => watches.get(runId) === created && watches.delete(runId));
    watches.set(runId, (watch = created));
  }
  const current = watch;
  let next = current.events.findIndex((event) => event.position > after);
  if (next < 0) next = current.events.length;
  let stopped = false;
  const catchUp = () => {
    if (stopped) return;
    const fresh = current.events.slice(next).filter((event) => event.position > after);
    next = current.events.length;
    if (fresh.length > 0) deliver(fresh);
    if (current.finished) {
      stopped = true;
      unsubscribe();
      done();
    }
  };
  const unsubscribe = current.subscribe(catchUp);
  if (current.events.length > 0) catchUp();
  return () => {
    stopped = true;
    unsubscribe();
  };
}
