import { SkillError } from './errors.js';

export const TIMED_OUT = Symbol('timed out');

export interface Deadline {
  /** Give this to the work; it aborts when the deadline passes or `outer` aborts. */
  signal: AbortSignal;
  /** Settles with the work's outcome, or TIMED_OUT (after aborting the signal) when the deadline passes first. */
  race<T>(work: () => T | Promise<T>): Promise<T | typeof TIMED_OUT>;
}

export function createDeadline(timeoutMs: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  // Linked by hand: AbortSignal.any costs more than a whole tool call's own work here.
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    race(work) {
      // One promise per call rather than a race of three; settling twice is a no-op, so work that ends after the
      // deadline changes nothing and its failure is never unhandled.
      return new Promise((resolve, reject) => {
        const settle = () => {
          clearTimeout(timer);
          outer?.removeEventListener('abort', forward);
        };
        const timer = setTimeout(() => {
          settle();
          controller.abort(new SkillError('TIMEOUT', `deadline of ${timeoutMs} ms passed`));
          resolve(TIMED_OUT);
        }, timeoutMs);
        const done = (value: Awaited<ReturnType<typeof work>>) => {
          settle();
          resolve(value);
        };
        const failed = (error: unknown) => {
          settle();
          reject(error);
        };
        try {
          Promise.resolve(work()).then(done, failed);
        } catch (error) {
          failed(error);
        }
      });
    },
  };
}
