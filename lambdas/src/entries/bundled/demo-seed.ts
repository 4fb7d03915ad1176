import { ROUTES } from '@service/shared';
import { configFromEnv } from '../../infra/config/config';
import type { Deps } from '../../infra/deps';
import type { QueueSender } from '../../infra/queue/queue';
import { createStore } from '../../infra/store/dynamo';
import { seedDemo, type DemoSeed } from '../local/seed';
import { LOCAL_REGION } from './cloudformation';
import type { HttpApiRoute } from './fronts';

/** The seed writes records only. */
const NO_QUEUE: QueueSender = {
  send: async (queue) => {
    throw new Error(`The seed sends no message (asked to send to ${queue})`);
  },
};

/** The demo seed writes what the REST API would write (agents get its settings: table prefix, mail domain). */
export async function seedStackDemo(routes: HttpApiRoute[], dynamoEndpoint: string, demoApiKey: string | undefined): Promise<DemoSeed> {
  const restApi = routes.find((route) => route.path === ROUTES.restApi);
  if (!restApi) throw new Error(`The template routes nothing to ${ROUTES.restApi}`);
  const config = configFromEnv(restApi.fn.environment);
  const seedStore = createStore({ tablePrefix: config.tablePrefix, region: LOCAL_REGION, endpoint: dynamoEndpoint });
  const seedDeps: Deps = { store: seedStore, queue: NO_QUEUE, config, now: () => new Date() };
  const demo = await seedDemo(seedDeps, demoApiKey);
  seedStore.raw.destroy();
  return demo;
}
