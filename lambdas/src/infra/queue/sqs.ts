import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { SQS_MAX_DELAY_SECONDS, type QueueName, type QueueSender } from './queue';

export function createSqsSender(queueUrls: Partial<Record<QueueName, string>>, region: string): QueueSender {
  const client = new SQSClient({ region });
  return {
    async send(queue, body, options = {}) {
      const url = queueUrls[queue];
      if (!url) throw new Error(`No URL configured for queue ${queue}`);
      const delay = Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, Math.ceil(options.delaySeconds ?? 0)));
      await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(body), DelaySeconds: delay }));
    },
  };
}
