import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

import type { QueueName } from '@service/shared';

export type { QueueName };

/** Sends messages to a work queue: SQS in AWS, the durable local queue on a laptop. */
export interface QueueSender {
  /** `delaySeconds` may be fractional locally; SQS rounds it up and caps it at 900 (longer waits re-enqueue). */
  send(queue: QueueName, body: unknown, options?: { delaySeconds?: number }): Promise<void>;
}

/** The same consumer signature SQS event source mappings call (with ReportBatchItemFailures). */
export type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/**
 * A consumer that handles the records of a batch at the same time; a record whose handling throws is reported as a
 * batch item failure (`failed` says so first), so the queue retries that one alone.
 */
export function eachRecordAtOnce(handle: (record: SQSRecord) => Promise<void>, failed: (record: SQSRecord, error: unknown) => void): QueueConsumer {
  return async (event) => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          await handle(record);
        } catch (error) {
          failed(record, error);
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures: failures };
  };
}

export const SQS_MAX_DELAY_SECONDS = 900;
