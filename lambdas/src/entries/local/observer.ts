import type { Context } from 'aws-lambda';
import { performance } from 'node:perf_hooks';
import type { HttpEvent } from '../../infra/http/event';
import type { ResponseSink } from '../../infra/http/streaming';
import type { QueueConsumer, QueueName, QueueSender } from '../../infra/queue/queue';
import type { LocalFunction } from './functions';

/** One handler call, as Lambda would bill it: an HTTP function (by the route the stack gives it) or a queue consumer given one batch. */
export type Invocation =
  | { trigger: 'http'; route: string; requestBytes: number; durationMs: number }
  | { trigger: 'queue'; queue: QueueName; messageBytes: number[]; failedMessages: number; durationMs: number };

/** Told what the local platform does that AWS would bill (the cost bench); it never changes what the platform does. */
export interface PlatformObserver {
  invoked(invocation: Invocation): void;
  /** One message put on a queue (an SQS SendMessage of `bytes`). */
  sent(queue: QueueName, bytes: number): void;
}

type Outcome<T> = { threw: false; result: T } | { threw: true };

/** Times `call` and reports its duration once it settles, failed or not. */
async function timed<T>(call: () => Promise<T>, report: (durationMs: number, outcome: Outcome<T>) => void): Promise<T> {
  const started = performance.now();
  let outcome: Outcome<T> = { threw: true };
  try {
    const result = await call();
    outcome = { threw: false, result };
    return result;
  } finally {
    report(performance.now() - started, outcome);
  }
}

export function observeFunctions(functions: LocalFunction[], observer: PlatformObserver | undefined): LocalFunction[] {
  if (!observer) return functions;
  return functions.map((fn): LocalFunction => {
    const report = (event: HttpEvent) => (durationMs: number) =>
      observer.invoked({ trigger: 'http', route: fn.route, requestBytes: Buffer.byteLength(event.body ?? ''), durationMs });
    if (fn.kind === 'buffered') {
      const { handler } = fn;
      return { ...fn, handler: (event: HttpEvent, context: Context) => timed(() => handler(event, context), report(event)) };
    }
    const { handler } = fn;
    return { ...fn, handler: (event: HttpEvent, sink: ResponseSink, context: Context) => timed(() => handler(event, sink, context), report(event)) };
  });
}

export function observeConsumer(queue: QueueName, consumer: QueueConsumer, observer: PlatformObserver | undefined): QueueConsumer {
  if (!observer) return consumer;
  return (event) =>
    timed(
      () => consumer(event),
      (durationMs, outcome) => {
        const messageBytes = event.Records.map((record) => Buffer.byteLength(record.body));
        // A consumer that throws fails its whole batch, as the event source mapping counts it.
        const failedMessages = outcome.threw ? event.Records.length : (outcome.result?.batchItemFailures.length ?? 0);
        observer.invoked({ trigger: 'queue', queue, messageBytes, failedMessages, durationMs });
      },
    );
}

export function observeSender(sender: QueueSender, observer: PlatformObserver | undefined): QueueSender {
  if (!observer) return sender;
  return {
    async send(queue, body, options) {
      await sender.send(queue, body, options);
      // The body as the SQS sender serialises it (infra/queue/sqs.ts).
      observer.sent(queue, Buffer.byteLength(JSON.stringify(body)));
    },
  };
}
