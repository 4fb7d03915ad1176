import type { Deps } from '../../infra/deps';
import type { SkillHost } from '../../infra/config/skill-host';

/** The skill host the entry wired into `deps` (withSkillHost in a Lambda, the local platform's own). */
export function skillHostOf(deps: Deps): SkillHost {
  if (!deps.skillHost) throw new Error('This function was wired without the skill host (entries/lambda/with-skill-host.ts)');
  return deps.skillHost();
}
