import { configFromEnv, type PlatformConfig } from '../../infra/config/config';
import type { Deps } from '../../infra/deps';
import type { QueueSender } from '../../infra/queue/queue';
import { createSqsSender } from '../../infra/queue/sqs';
import { loadSecretsIntoEnv } from '../../infra/secrets/secrets';
import { createStore } from '../../infra/store/dynamo';
import { lazyKnowledgeStores } from '../../infra/search/knowledge-stores';

function wiring(config: PlatformConfig, queue: QueueSender): Deps {
  const store = createStore({ tablePrefix: config.tablePrefix, region: config.region, ...(config.dynamoEndpoint ? { endpoint: config.dynamoEndpoint } : {}) });
  const knowledge = lazyKnowledgeStores(config);
  return { config, store, queue, now: () => new Date(), ...(knowledge ? { knowledge } : {}) };
}

/** The queue of a function the stack gives no queue (cdk/lib/functions.ts: `sendsTo: []`). */
const NO_QUEUE: QueueSender = {
  send: async (queue) => {
    throw new Error(`This function sends to no queue (asked to send to ${queue})`);
  },
};

/**
 * The wiring of a function that sends to no queue: DynamoDB only, so the SQS client stays out of its bundle, and the
 * Secrets Manager client too unless it is wrapped in `withSecrets` (the widget chat).
 */
export const storeDepsFromEnv = (): Deps => wiring(configFromEnv(), NO_QUEUE);

/** The wiring of a function that reads no secret but sends to the queues (the MCP access point): no Secrets Manager client. */
export function queueDepsFromEnv(): Deps {
  const config = configFromEnv();
  return wiring(config, createSqsSender(config.queueUrls, config.region));
}

/** Reads the secrets the stack names by ARN (Secrets Manager) into their settings, then wires the function. */
export async function withSecrets(wire: () => Deps): Promise<Deps> {
  await loadSecretsIntoEnv();
  return wire();
}

/** Production wiring at cold start: secrets, then DynamoDB and SQS as the CDK stack configured them. */
export const depsFromEnv = (): Promise<Deps> => withSecrets(queueDepsFromEnv);
