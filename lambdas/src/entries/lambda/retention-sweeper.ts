import { storeDepsFromEnv } from './deps-from-env';
import { sweepRetention } from '../../domains/visitors/retention-sweeper';
import { withInboundMail } from './with-inbound-mail';

/** Lambda entry of the retention sweeper, invoked every hour by an EventBridge schedule: expired conversations (and their mails' files), crashed erasures. */
const deps = withInboundMail(storeDepsFromEnv());
export const handler = () => sweepRetention(deps);
