import { skillHostFromEnv, type SkillHost } from '../../infra/config/skill-host';
import type { Deps } from '../../infra/deps';

/**
 * The wiring of a function that reaches skills (the widget chat, the runner, the skill callbacks and operator API):
 * the skill host its settings describe, read on first use (after withSecrets has loaded them) and kept once read.
 */
export function withSkillHost(deps: Deps): Deps {
  let host: SkillHost | undefined;
  return { ...deps, skillHost: () => (host ??= skillHostFromEnv(process.env)) };
}
