import type { Deps } from '../../../infra/deps';
import { logger } from '../../../infra/logger';
import { findRun, toRunResponse } from '../runs';
import { onSteps } from './step-signal';
import { readTimeline, type RunStep } from './timeline';

/** One event of a run's stream: its `id:` (the step's seq; the final `run` event comes after the last step). */
export interface RunEvent {
  id: number;
  name: string;
  data: unknown;
}

/** The poll's pace: soon after news, slower while the run is quiet (each poll is two reads). */
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

  /** Reads what is new; returns how many events it added. */
  private async poll(): Promise<number> {
    const run = await findRun(this.deps, this.runId);
    if (!run) return 0;
    const before = this.events.length;
    for (;;) {
      const page = await readTimeline(this.deps, run, this.cursor, PAGE);
      this.events.push(...page.steps.map((step: RunStep) => ({ id: step.seq, name: step.type, data: step })));
      this.cursor = page.steps.at(-1)?.seq ?? this.cursor;
      if (page.complete) {
        this.events.push({ id: (this.cursor ?? 0) + 1, name: 'run', data: toRunResponse(run) });
        this.finished = true;
      }
      if (page.complete || page.steps.length < PAGE) break;
    }
    return this.events.length - before;
  }
}

const watches = new Map<string, RunWatch>();

/**
 * Follows a run's events: `deliver` is called with the events after `afterId` as they arrive, and `done` once the
 * final `run` event was delivered. Returns the way to stop following.
 */
export function followRun(deps: Deps, runId: string, afterId: number, deliver: (events: RunEvent[]) => void, done: () => void): () => void {
  let watch = watches.get(runId);
  if (!watch) {
    const created: RunWatch = new RunWatch(deps, runId, () => watches.get(runId) === created && watches.delete(runId));
    watches.set(runId, (watch = created));
  }
  const current = watch;
  let next = current.events.findIndex((event) => event.id > afterId);
  if (next < 0) next = current.events.length;
  let stopped = false;
  const catchUp = () => {
    if (stopped) return;
    const fresh = current.events.slice(next).filter((event) => event.id > afterId);
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
