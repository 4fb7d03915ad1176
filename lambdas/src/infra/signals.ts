import { EventEmitter } from 'node:events';

/**
 * In-process news by key ("this run stored steps", "this conversation changed"): a reader in the writer's own process
 * (the local platform) looks at once instead of at its next poll. Across processes only the store tells, by polling.
 */
export function inProcessSignals() {
  const signals = new EventEmitter().setMaxListeners(0);
  return {
    announce: (key: string) => void signals.emit(key),
    on(key: string, listener: () => void): () => void {
      signals.on(key, listener);
      return () => void signals.off(key, listener);
    },
  };
}
