import { queueDepsFromEnv } from './deps-from-env';
import { syncDueSources } from '../../domains/knowledge/schedule';

/** Lambda entry of the knowledge schedule, invoked every few minutes by an EventBridge rule: due and stalled syncs. */
const deps = queueDepsFromEnv();
export const handler = async () => ({ started: await syncDueSources(deps) });
