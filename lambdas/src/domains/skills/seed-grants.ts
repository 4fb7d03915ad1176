import type { Deps } from '../../infra/deps';
import { BUILTIN_SKILLS } from './builtin';
import { listGrants } from './grants';
import { putSkillItem } from './repository';

/** Read-only tools a website visitor's agent may use from the start: answering from the company's own content. */
const PUBLIC_BY_DEFAULT: ReadonlySet<string> = new Set(['knowledge.search']);

/**
 * Starting grants for a workspace that has none: owner and admin (and so API-key commands) may use every tool of
 * the built-in skills, member only the read-only ones, public only those of PUBLIC_BY_DEFAULT. A workspace that
 * granted anything keeps its own.
 */
export async function seedBuiltinGrants(deps: Deps, workspaceId: string): Promise<void> {
  if ((await listGrants(deps, workspaceId)).length > 0) return;
  const createdAt = deps.now().toISOString();
  const writes: Promise<boolean>[] = [];
  for (const skill of BUILTIN_SKILLS.values()) {
    for (const tool of skill.tools.values()) {
      const roles = tool.annotations?.readOnlyHint
        ? ['owner', 'admin', 'member', ...(PUBLIC_BY_DEFAULT.has(tool.capability) ? ['public'] : [])]
        : ['owner', 'admin'];
      for (const role of roles) {
        writes.push(putSkillItem(deps, workspaceId, `grant#${role}#${tool.capability}`, { role, capability: tool.capability, createdAt }, true));
      }
    }
  }
  await Promise.all(writes);
}
