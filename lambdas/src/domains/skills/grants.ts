import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { findSkill } from './catalog';
import { assertRoleExists } from './roles';
import { deleteSkillItem, putSkillItem, querySkillItems } from './repository';

/** A role may use a tool: the capability `code.action` granted to the role, per workspace. */
export interface Grant {
  role: string;
  capability: string;
  /** The tool runs for a widget visitor only with a valid signed token (absent: any caller of the role). */
  requiresVerifiedVisitor?: boolean;
  createdAt: string;
}

const skOf = (role: string, capability: string) => `grant#${role}#${capability}`;

export const listGrants = (deps: Deps, workspaceId: string): Promise<Grant[]> => querySkillItems<Grant>(deps, workspaceId, 'grant');

/** The capability must name a tool of a skill the workspace can install (built-in or registered). */
async function assertCapabilityExists(deps: Deps, workspaceId: string, capability: string): Promise<void> {
  const [code = '', action] = capability.split('.');
  const skill = await findSkill(deps, workspaceId, code);
  if (!skill || !skill.tools.some((tool) => tool.action === action)) {
    throw new DomainError('NOT_FOUND', `No tool with the capability ${capability}; see skills/list`, { field: 'capability' });
  }
}

/** Grants a capability to a role; granting it again keeps the first grant. */
export async function createGrant(
  deps: Deps,
  workspaceId: string,
  role: string,
  capability: string,
  options: { requiresVerifiedVisitor?: boolean } = {},
): Promise<{ grant: Grant; created: boolean }> {
  await assertRoleExists(deps, workspaceId, role);
  await assertCapabilityExists(deps, workspaceId, capability);
  const grant: Grant = { role, capability, ...(options.requiresVerifiedVisitor ? { requiresVerifiedVisitor: true } : {}), createdAt: deps.now().toISOString() };
  const created = await putSkillItem(deps, workspaceId, skOf(role, capability), grant, true);
  if (created) return { grant, created };
  const existing = (await listGrants(deps, workspaceId)).find((item) => item.role === role && item.capability === capability);
  return { grant: existing ?? grant, created: false };
}

export async function revokeGrant(deps: Deps, workspaceId: string, role: string, capability: string): Promise<void> {
  if (!(await deleteSkillItem(deps, workspaceId, skOf(role, capability)))) {
    throw new DomainError('NOT_FOUND', `The role ${role} holds no grant of ${capability}`, { field: 'capability' });
  }
}

/**
 * What a caller with `roles` may do with one skill. `granted` lists the capabilities its roles hold; it is undefined
 * when the workspace has no grant at all for the skill, and only then the tools' own `roles` decide (the fallback).
 */
export function accessTo(
  grants: readonly Grant[],
  code: string,
  roles: readonly string[],
  caller: { verifiedVisitor?: boolean } = {},
): { granted: string[] | undefined } {
  const ofSkill = grants.filter((grant) => grant.capability.startsWith(`${code}.`));
  if (ofSkill.length === 0) return { granted: undefined };
  // A grant that asks for a verified visitor holds only for one: anyone else is as if it did not exist (deny).
  const holds = (grant: Grant) => roles.includes(grant.role) && (!grant.requiresVerifiedVisitor || caller.verifiedVisitor === true);
  return { granted: [...new Set(ofSkill.filter(holds).map((grant) => grant.capability))] };
}

/** Deny by default: a tool is usable when its capability is granted, or, with no grant for its skill, when a role of it matches. */
export function mayUse(
  tool: { capability: string; roles?: readonly string[] | undefined },
  access: { granted: string[] | undefined },
  roles: readonly string[],
): boolean {
  if (access.granted) return access.granted.includes(tool.capability);
  return tool.roles?.some((role) => roles.includes(role)) ?? false;
}
