/**
 * The work queues (SQS in AWS, the durable local queue in dynalite locally; each with a dead-letter queue): runs for the runner, webhooks for the deliverer, knowledge for the
 * crawl and sync of knowledge sources (one page per message), evals for the eval runner (one eval run per message), mail for inbound e-mail (one mail per message: docs/email.md).
 */
export const QUEUE_NAMES = ['runs', 'webhooks', 'knowledge', 'evals', 'mail'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** The environment variable through which a function learns a queue's URL: the CDK stack sets it, the config reads it. */
export const QUEUE_URL_ENV = {
  runs: 'RUNS_QUEUE_URL',
  webhooks: 'WEBHOOK_QUEUE_URL',
  knowledge: 'KNOWLEDGE_QUEUE_URL',
  evals: 'EVALS_QUEUE_URL',
  mail: 'MAIL_QUEUE_URL',
} as const satisfies Record<QueueName, string>;

/**
 * Most messages one invocation of a queue's consumer takes (its SQS event source mapping's BatchSize, with partial batch
 * responses): the CDK stack configures it, the local queue hands batches of the same size.
 */
export const QUEUE_BATCH_SIZE = { runs: 5, webhooks: 10, knowledge: 4, evals: 1, mail: 5 } as const satisfies Record<QueueName, number>;
