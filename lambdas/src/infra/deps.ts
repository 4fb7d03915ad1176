import type { PlatformConfig } from './config/config';
import type { QueueSender } from './queue/queue';
import type { Store } from './store/dynamo';

/** What every handler needs, built once per Lambda container (or once per local platform). */
export interface Deps {
  store: Store;
  queue: QueueSender;
  config: PlatformConfig;
  now: () => Date;
}
