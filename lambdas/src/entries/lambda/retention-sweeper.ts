import { storeDepsFromEnv } from './deps-from-env';
import { sweepRetention } from '../../domains/visitors/retention-sweeper';

/** Lambda entry of the retention sweeper, invoked every hour by an EventBridge schedule: expired conversations, crashed erasures. */
const deps = storeDepsFromEnv();
export const handler = () => sweepRetention(deps);
