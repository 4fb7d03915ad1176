import { flushTraces } from '../../domains/telemetry/tracing';

/**
 * A frozen Lambda sends nothing: the spans of the runs and replies an invocation made are sent before it returns,
 * after its answer (a streamed reply has ended, a queue batch is done), waiting at most this long for the collector.
 */
const FLUSH_MS = 1_000;

export function withTraceFlush<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } finally {
      await flushTraces(FLUSH_MS);
    }
  };
}
