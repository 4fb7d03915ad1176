import type { Deps } from '../../infra/deps';
import { BUILTIN_SKILLS } from './builtin';
import { listGrants } from './grants';
import { putSkillItem } from './repository';

/**
 * Starting grants for a workspace that has none: owner and admin (and so API-key commands) may use every tool of
 * the built-in skills, member only the read-only ones, public nothing. A workspace that granted anything keeps its own.
 */
export async function seedBuiltinGrants(deps: Deps, workspaceId: string): Promise<void> {
  if ((await listGrants(deps, workspaceId)).length > 0) return;
  const createdAt = deps.now().toISOString();
  const writes: Promise<boolean>[] = [];
  for (const skill of BUILTIN_SKILLS.values()) {
    for (const tool of skill.tools.values()) {
      const roles = tool.annotations?.readOnlyHint ? ['owner', 'admin', 'member'] : ['owner', 'admin'];
      for (const role of roles) {
        writes.push(putSkillItem(deps, workspaceId, `grant#${role}#${tool.capability}`, { role, capability: tool.capability, createdAt }, true));
      }
    }
  }
  await Promise.all(writes);
}
