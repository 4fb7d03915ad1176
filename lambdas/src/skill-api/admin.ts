import { ApiError, ENDPOINTS, schemas } from '@service/shared';
import type { z } from 'zod';
import type { Deps } from '../deps';
import { getWorkspace } from '../domain/workspaces';
import { findSkill, toSkillResponse } from '../skills/catalog';
import { createGrant, revokeGrant } from '../skills/grants';
import { registerSkill } from '../skills/registry';
import { createRole } from '../skills/roles';

interface AdminRoute<S extends z.ZodType> {
  body: S;
  status: number;
  run(deps: Deps, workspaceId: string, body: z.output<S>): Promise<{ data: object; msg: string }>;
}
const workspaceField = { workspace_id: schemas.uuid('workspace_id') };
const route = <S extends z.ZodType>(body: S, status: number, run: AdminRoute<S>['run']) => ({ body, status, run }) as AdminRoute<z.ZodType>;

/**
 * Platform-level administration with the master system key (operators and provisioning, never skills): the same
 * actions as the company's REST endpoints, for any workspace named by `workspace_id`.
 */
export const ADMIN_ROUTES: Readonly<Record<string, AdminRoute<z.ZodType>>> = {
  'skills/register': route(ENDPOINTS.skillsRegister.body.extend(workspaceField), 201, async (deps, workspaceId, body) => {
    const registered = await registerSkill(deps, workspaceId, body, { allowLocal: deps.config.webhookAllowLocal });
    const skill = (await findSkill(deps, workspaceId, registered.code))!;
    return { data: { skill: toSkillResponse(skill), turn_token_secret: registered.turnTokenSecret }, msg: `Skill ${skill.code} registered` };
  }),
  'roles/create': route(ENDPOINTS.rolesCreate.body.extend(workspaceField), 201, async (deps, workspaceId, body) => {
    const role = await createRole(deps, workspaceId, body.name, body.description);
    return { data: { role: { name: role.name, description: role.description, builtin: false, created_at: role.createdAt } }, msg: `Role ${role.name} created` };
  }),
  'grants/create': route(ENDPOINTS.grantsCreate.body.extend(workspaceField), 201, async (deps, workspaceId, body) => {
    const { grant } = await createGrant(deps, workspaceId, body.role, body.capability);
    return { data: { grant: { role: grant.role, capability: grant.capability, created_at: grant.createdAt } }, msg: `${body.capability} granted to ${body.role}` };
  }),
  'grants/revoke': route(ENDPOINTS.grantsRevoke.body.extend(workspaceField), 200, async (deps, workspaceId, body) => {
    await revokeGrant(deps, workspaceId, body.role, body.capability);
    return { data: { revoked: true, role: body.role, capability: body.capability }, msg: `${body.capability} revoked from ${body.role}` };
  }),
};

export async function assertWorkspace(deps: Deps, workspaceId: string): Promise<void> {
  if (!(await getWorkspace(deps, workspaceId))) throw new ApiError('NOT_FOUND', `No workspace ${workspaceId}`, { field: 'workspace_id' });
}
