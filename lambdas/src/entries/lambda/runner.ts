import { depsFromEnv } from './deps-from-env';
import { resolveModel } from '../../infra/model';
import { createRunConsumer } from '../../domains/runs/runtime/run-consumer';

/** Lambda entry of the `runs` queue consumer. */
const deps = await depsFromEnv();
export const handler = createRunConsumer(deps, { model: resolveModel(deps.config.model) });
