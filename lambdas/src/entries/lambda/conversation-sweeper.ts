import { storeDepsFromEnv } from './deps-from-env';
import { sweepUnclaimed } from '../../domains/conversations/nobody-available';

/** Lambda entry of the conversation sweeper, invoked every minute by an EventBridge schedule: claim timeouts that are due. */
const deps = storeDepsFromEnv();
export const handler = async () => ({ due: await sweepUnclaimed(deps) });
