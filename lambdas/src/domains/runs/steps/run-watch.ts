import { schemas } from '@service/shared';
import type { z } from 'zod';
import type { Deps } from '../../../infra/deps';
import { SharedPoll, sharedPolls } from '../../../infra/shared-poll';
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

const PAGE = 100;

/**
 * The shared poll of a run's timeline (infra/shared-poll.ts): it keeps the events read so far for every stream of the
 * run (each poll is two reads, three once the run was taken: its text pieces), and is finished with the run.
 */
class RunWatch extends SharedPoll {
  readonly events: RunEvent[] = [];
  private done = false;
  private cursor: number | undefined;
  /** The text pieces shown since the last step: the turn being written. */
  private turn = { afterSeq: -1, index: 0, text: '' };

  constructor(
    private readonly deps: Deps,
    private readonly runId: string,
    onIdle: () => void,
  ) {
    super({ what: 'run', key: runId }, (listener) => onSteps(runId, listener), onIdle);
  }

  override get finished(): boolean {
    return this.done;
  }

  /**
   * Reads what is new; whether it added events. The text pieces are read after the steps: a turn's text
   * step is stored only once its pieces are (step-log.ts), so a text step read has all its pieces readable.
   */
  protected async poll(): Promise<boolean> {
    const run = await findRun(this.deps, this.runId);
    if (!run) return false;
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
        this.done = true;
      }
      if (page.complete || page.steps.length < PAGE) break;
    }
    return this.events.length > before;
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

const watches = sharedPolls<RunWatch>();

/**
 * Follows a run's events: `deliver` is called with the events after stream position `after` as they arrive, and
 * `done` once the final `run` event was delivered. Returns the way to stop following.
 */
export function followRun(deps: Deps, runId: string, after: number, deliver: (events: RunEvent[]) => void, done: () => void): () => void {
  const current = watches.follow(runId, (forget) => new RunWatch(deps, runId, forget));
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
