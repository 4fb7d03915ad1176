/** The two work queues (ARCHITECTURE.md, "Queues (SQS)"): runs for the runner, webhooks for the deliverer. */
export const QUEUE_NAMES = ['runs', 'webhooks'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** The environment variable through which a function learns a queue's URL: the CDK stack sets it, the config reads it. */
export const QUEUE_URL_ENV = { runs: 'RUNS_QUEUE_URL', webhooks: 'WEBHOOK_QUEUE_URL' } as const satisfies Record<QueueName, string>;
