import { depsFromEnv } from './deps-from-env';
import { withSkillHost } from './with-skill-host';
import { resolveModel } from '../../infra/model';
import { evalRunner } from '../../surfaces/evals/runner';
import { withTraceFlush } from './with-trace-flush';

/** Lambda entry of the `evals` queue consumer: plays eval runs of agents' suites. */
const deps = withSkillHost(await depsFromEnv());
export const handler = withTraceFlush(evalRunner(deps, resolveModel(deps.config.model)));
