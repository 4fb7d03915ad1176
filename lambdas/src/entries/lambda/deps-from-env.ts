import { configFromEnv, type PlatformConfig } from '../../infra/config/config';
import type { Deps } from '../../infra/deps';
import type { QueueSender } from '../../infra/queue/queue';
import { createSqsSender } from '../../infra/queue/sqs';
import { loadSecretsIntoEnv } from '../../infra/secrets/secrets';
import { createStore } from '../../infra/store/dynamo';

function wiring(config: PlatformConfig, queue: QueueSender): Deps {
  const store = createStore({ tablePrefix: config.tablePrefix, region: config.region, ...(config.dynamoEndpoint ? { endpoint: config.dynamoEndpoint } : {}) });
  return { config, store, queue, now: () => new Date() };
}

/** Production wiring at cold start: secrets from Secrets Manager, then DynamoDB and SQS as the CDK stack configured them. */
export async function depsFromEnv(): Promise<Deps> {
  await loadSecretsIntoEnv();
  const config = configFromEnv();
  return wiring(config, createSqsSender(config.queueUrls, config.region));
}

/** The queue of a function the stack gives no queue (cdk/lib/functions.ts: `sendsTo: []`). */
const NO_QUEUE: QueueSender = {
  send: async (queue) => {
    throw new Error(`This function sends to no queue (asked to send to ${queue})`);
  },
};

/**
 * The wiring of a function that reads no secret and sends to no queue (the widget's two): DynamoDB only, so neither
 * the SQS nor the Secrets Manager client rides in its bundle.
 */
export const storeDepsFromEnv = (): Deps => wiring(configFromEnv(), NO_QUEUE);

/** The wiring of a function that reads no secret but sends to the queues (the MCP access point): no Secrets Manager client. */
export function queueDepsFromEnv(): Deps {
  const config = configFromEnv();
  return wiring(config, createSqsSender(config.queueUrls, config.region));
}
