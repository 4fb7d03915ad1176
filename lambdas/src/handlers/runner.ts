import { depsFromEnv } from '../deps-from-env';
import { resolveModel } from '../model';
import { createRunConsumer } from '../runtime/run-consumer';

/** Lambda entry of the `runs` queue consumer. */
const deps = await depsFromEnv();
export const handler = createRunConsumer(deps, { model: resolveModel(deps.config.model) });
