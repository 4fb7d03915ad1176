import { EventEmitter } from 'node:events';

/**
 * In-process news that a run stored new steps: a stream in the runner's own process (the local platform) reads them
 * at once instead of at its next poll. Across processes the store alone tells, by polling.
 */
const signals = new EventEmitter().setMaxListeners(0);

export const announceSteps = (runId: string) => void signals.emit(runId);

export function onSteps(runId: string, listener: () => void): () => void {
  signals.on(runId, listener);
  return () => void signals.off(runId, listener);
}
