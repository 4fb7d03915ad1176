import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** After this many failed receives a message moves to the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

/**
 * AWS advises a visibility timeout of six times the consumer's timeout, so a message is not handed to a second
 * consumer while the first (including its retries within a batch) may still be working on it.
 */
const VISIBILITY_PER_CONSUMER_TIMEOUT = 6;

/** An SQS queue with SSE, TLS-only access and a dead-letter queue kept for 14 days. */
export class WorkQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: { consumerTimeoutSeconds: number }) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.consumerTimeoutSeconds * VISIBILITY_PER_CONSUMER_TIMEOUT),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
  }
}
