import { findSkill, toSkillResponse } from '../../../domains/skills/catalog';
import { createGrant, listGrants, revokeGrant, type Grant } from '../../../domains/skills/grants';
import { registerSkill } from '../../../domains/skills/registry';
import { createRole, listRoles, type Role } from '../../../domains/skills/roles';
import type { EndpointHandlers } from './types';

export const toRoleResponse = (role: Role) => ({ name: role.name, description: role.description, builtin: role.builtin, created_at: role.createdAt });
export const toGrantResponse = (grant: Grant) => ({
  role: grant.role,
  capability: grant.capability,
  requires_verified_visitor: grant.requiresVerifiedVisitor === true,
  created_at: grant.createdAt,
});

type SkillAccessEndpoints = 'skillsRegister' | 'rolesList' | 'rolesCreate' | 'grantsList' | 'grantsCreate' | 'grantsRevoke';

/** Company-level administration with the workspace's API key: Path B registration, roles and capability grants. */
export const skillAccessEndpoints: EndpointHandlers<SkillAccessEndpoints> = {
  skillsRegister: async ({ deps, workspace, body }) => {
    const registered = await registerSkill(deps, workspace.id, body, { allowLocal: deps.config.webhookAllowLocal });
    const skill = (await findSkill(deps, workspace.id, registered.code))!;
    return {
      data: { skill: toSkillResponse(skill), turn_token_secret: registered.turnTokenSecret, secret_already_shown: false },
      msg: `Skill ${skill.code} registered with ${skill.tools.length} tools; give it the turn-token key now (it is not shown again), then grant its capabilities`,
    };
  },

  rolesList: async ({ deps, workspace }) => ({ data: { roles: (await listRoles(deps, workspace.id)).map(toRoleResponse) } }),

  rolesCreate: async ({ deps, workspace, body, action }) => {
    const role = await createRole(deps, workspace.id, body.name, body.description, action);
    return { data: { role: toRoleResponse(role) }, msg: `Role ${role.name} created` };
  },

  grantsList: async ({ deps, workspace, query }) => {
    const grants = (await listGrants(deps, workspace.id)).filter((grant) => !query.role || grant.role === query.role);
    return { data: { grants: grants.map(toGrantResponse) } };
  },

  grantsCreate: async ({ deps, workspace, body }) => {
    const { grant, created } = await createGrant(deps, workspace.id, body.role, body.capability, { requiresVerifiedVisitor: body.requires_verified_visitor });
    return {
      data: { grant: toGrantResponse(grant) },
      msg: created ? `${body.capability} granted to ${body.role}` : `${body.role} already holds ${body.capability}`,
    };
  },

  grantsRevoke: async ({ deps, workspace, body }) => {
    await revokeGrant(deps, workspace.id, body.role, body.capability);
    return { data: { revoked: true as const, role: body.role, capability: body.capability }, msg: `${body.capability} revoked from ${body.role}` };
  },
};
