import { configFromEnv } from './config';
import type { Deps } from './deps';
import { createSqsSender } from './queue/sqs';
import { loadSecretsIntoEnv } from './secrets';
import { createStore } from './store/dynamo';

/** Production wiring at cold start: secrets from Secrets Manager, then DynamoDB and SQS as the CDK stack configured them. */
export async function depsFromEnv(): Promise<Deps> {
  await loadSecretsIntoEnv();
  const config = configFromEnv();
  return {
    config,
    store: createStore({ tablePrefix: config.tablePrefix, region: config.region, ...(config.dynamoEndpoint ? { endpoint: config.dynamoEndpoint } : {}) }),
    queue: createSqsSender(config.queueUrls, config.region),
    now: () => new Date(),
  };
}
