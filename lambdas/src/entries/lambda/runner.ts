import { depsFromEnv } from './deps-from-env';
import { withSkillHost } from './with-skill-host';
import { resolveModel } from '../../infra/model';
import { createRunConsumer } from '../../domains/runs/runtime/run-consumer';
import { withTraceFlush } from './with-trace-flush';

/** Lambda entry of the `runs` queue consumer. */
const deps = withSkillHost(await depsFromEnv());
export const handler = withTraceFlush(createRunConsumer(deps, { model: resolveModel(deps.config.model) }));
