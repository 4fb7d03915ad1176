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
    async race(work) {
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(resolve, timeoutMs, TIMED_OUT);
      });
      const running = Promise.resolve().then(work);
      running.catch(() => undefined); // work failing after the deadline must not become an unhandled rejection
      try {
        const outcome = await Promise.race([running, expired]);
        if (outcome === TIMED_OUT) controller.abort(new SkillError('TIMEOUT', `deadline of ${timeoutMs} ms passed`));
        return outcome;
      } finally {
        clearTimeout(timer);
        outer?.removeEventListener('abort', forward);
      }
    },
  };
}
