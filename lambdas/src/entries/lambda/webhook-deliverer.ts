import { depsFromEnv } from './deps-from-env';
import { createWebhookConsumer } from '../../domains/webhooks/deliverer';

/** Lambda entry of the webhook deliverer (SQS event source on the webhook queue, with ReportBatchItemFailures). */
export const handler = createWebhookConsumer(await depsFromEnv());
