import { configFromEnv } from './config';
import type { Deps } from './deps';
import { createSqsSender } from './queue/sqs';
import { createStore } from './store/dynamo';

/** Production wiring: DynamoDB and SQS as the CDK stack configured them through the environment. */
export function depsFromEnv(): Deps {
  const config = configFromEnv();
  return {
    config,
    store: createStore({ tablePrefix: config.tablePrefix, region: config.region, ...(config.dynamoEndpoint ? { endpoint: config.dynamoEndpoint } : {}) }),
    queue: createSqsSender(config.queueUrls, config.region),
    now: () => new Date(),
  };
}
