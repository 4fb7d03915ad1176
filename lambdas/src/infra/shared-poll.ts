import { logger } from './logger';

/** The poll's pace: soon after news, doubling while nothing changes, up to a second. */
const POLL_MIN_MS = 100;
const POLL_MAX_MS = 1_000;

/**
 * A quiet poll waits for the next whole second: the quiet polls of a process then wake in the same turn of the event
 * loop, where their reads can go to the store together (see the conversations' live-watch.ts).
 */
const untilNextQuietTick = () => POLL_MAX_MS - (Date.now() % POLL_MAX_MS) || POLL_MAX_MS;

/**
 * In a numbered feed (a transcript, the inbox's changes), a position whose entry is not there while later ones are:
 * a writer took it and has not stored it yet (or crashed between the two). A poll waits this long for it, keeping
 * order, then goes on without it.
 */
export const GAP_WAIT_MS = 5_000;

/**
 * One reader of one thing in the store (a run's timeline, a conversation's transcript) per process, however many
 * streams follow it: it polls the store (where any process writes), wakes early on an in-process signal, and tells its
 * followers when it read news; each follower keeps its own place in what was read. It stops when nobody follows, or
 * when the thing is `finished`. A subclass says how to read (`poll`) and when no more news will come.
 */
export abstract class SharedPoll {
  private readonly listeners = new Set<() => void>();
  private running = false;
  private wake: (() => void) | undefined;
  /** News that came while a poll was reading: the next poll starts at once. */
  private woken = false;
  /** When the gap waited for was first seen. */
  private gapSince: number | undefined;

  constructor(
    private readonly about: { what: string; key: string },
    private readonly onSignal: (listener: () => void) => () => void,
    private readonly onIdle: () => void,
  ) {}

  /** Reads what is new; whether the followers have anything new to see. */
  protected abstract poll(): Promise<boolean>;

  /** No more news will come: the followers are told a last time and the poll ends. */
  get finished(): boolean {
    return false;
  }

  /** Poll again soon even without news: while a gap is waited for (or a subclass has something to complete quickly). */
  protected get hurried(): boolean {
    return this.gapSince !== undefined;
  }

  /** A gap is seen (again): whether it was waited for long enough (GAP_WAIT_MS) to be skipped. */
  protected gapExpired(): boolean {
    const now = Date.now();
    this.gapSince ??= now;
    return now - this.gapSince >= GAP_WAIT_MS;
  }

  /** The gap was filled, or skipped. */
  protected gapClosed(): void {
    this.gapSince = undefined;
  }

  get followers(): number {
    return this.listeners.size;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.running) void this.loop();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.wake?.();
    };
  }

  private async loop(): Promise<void> {
    this.running = true;
    const stopSignal = this.onSignal(() => {
      this.woken = true;
      this.wake?.();
    });
    let delay = POLL_MIN_MS;
    try {
      while (this.listeners.size > 0 && !this.finished) {
        const changed = await this.poll().catch(
          (error: unknown) => (logger.warn(`${this.about.what} stream poll failed`, { [this.about.what]: this.about.key, error }), false),
        );
        if (changed || this.finished) this.listeners.forEach((listener) => listener());
        if (this.finished || this.listeners.size === 0) break;
        delay = changed ? POLL_MIN_MS : Math.min(POLL_MAX_MS, delay * 2);
        if (this.woken) {
          this.woken = false;
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.hurried ? POLL_MIN_MS : delay < POLL_MAX_MS ? delay : untilNextQuietTick());
          this.wake = () => (clearTimeout(timer), resolve());
        });
        this.wake = undefined;
        this.woken = false;
      }
    } finally {
      stopSignal();
      this.running = false;
      this.onIdle();
    }
  }
}

/**
 * The process's shared polls of one kind, by key: `follow(key, create)` gives the live one or starts one (`create`
 * gets the way to forget it once idle). `live()` counts them: one per followed thing, however many follow it.
 */
export function sharedPolls<P extends SharedPoll>() {
  const polls = new Map<string, P>();
  return {
    follow(key: string, create: (forget: () => void) => P): P {
      const live = polls.get(key);
      if (live) return live;
      const created: P = create(() => polls.get(key) === created && polls.delete(key));
      polls.set(key, created);
      return created;
    },
    live: () => polls.size,
  };
}
