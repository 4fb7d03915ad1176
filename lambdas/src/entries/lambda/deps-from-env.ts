import { configFromEnv } from '../../infra/config/config';
import type { Deps } from '../../infra/deps';
import { createSqsSender } from '../../infra/queue/sqs';
import { loadSecretsIntoEnv } from '../../infra/secrets/secrets';
import { createStore } from '../../infra/store/dynamo';

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
