import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

export type QueueName = 'runs' | 'webhooks';

/** Sends messages to a work queue: SQS in AWS, the durable local queue on a laptop. */
export interface QueueSender {
  /** `delaySeconds` may be fractional locally; SQS rounds it up and caps it at 900 (longer waits re-enqueue). */
  send(queue: QueueName, body: unknown, options?: { delaySeconds?: number }): Promise<void>;
}

/** The same consumer signature SQS event source mappings call (with ReportBatchItemFailures). */
export type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export const SQS_MAX_DELAY_SECONDS = 900;
