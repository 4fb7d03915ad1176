import { queueDepsFromEnv } from './deps-from-env';
import { createKnowledgeConsumer } from '../../domains/knowledge/consumer';

/** Lambda entry of the knowledge consumer (SQS event source on the knowledge queue, with ReportBatchItemFailures). */
export const handler = createKnowledgeConsumer(queueDepsFromEnv());
