import { ApiError, ENDPOINTS, newUuid, schemas } from '@service/shared';
import { z } from 'zod';
import type { Deps } from '../../infra/deps';
import { createApiKey, toApiKeyResponse } from '../../domains/access/api-keys';
import { getWorkspace, PLANS, putWorkspaceIfAbsent, type Plan } from '../../domains/access/workspaces';
import { findSkill, toSkillResponse } from '../../domains/skills/catalog';
import { createGrant, revokeGrant } from '../../domains/skills/grants';
import { registerSkill } from '../../domains/skills/registry';
import { createRole } from '../../domains/skills/roles';
import { seedBuiltinGrants } from '../../domains/skills/seed-grants';

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

const ProvisionBody = z
  .object({
    name: z.string().trim().min(1).max(120),
    plan: z.enum(Object.keys(PLANS) as [Plan, ...Plan[]]).default('partner'),
  })
  .strict();

/**
 * Provisioning a new company (a deployment has no other way to create its first workspace): the workspace, the
 * starting grants of the built-in skills, and its first API key, shown once.
 */
export async function provisionWorkspace(deps: Deps, input: z.output<typeof ProvisionBody>) {
  const workspace = { id: newUuid(), name: input.name, plan: input.plan, tokenLimit: PLANS[input.plan].tokenLimit, createdAt: deps.now().toISOString() };
  await putWorkspaceIfAbsent(deps, workspace);
  await seedBuiltinGrants(deps, workspace.id);
  const { key, secret } = await createApiKey(deps, workspace.id, 'First key');
  return {
    data: {
      workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan, token_limit: workspace.tokenLimit, created_at: workspace.createdAt },
      key: toApiKeyResponse(key),
      secret,
    },
    msg: `Workspace ${workspace.name} created; copy the API key now, it is not shown again`,
  };
}

export const PROVISION_ROUTE = { name: 'workspaces/create', body: ProvisionBody } as const;

export async function assertWorkspace(deps: Deps, workspaceId: string): Promise<void> {
  if (!(await getWorkspace(deps, workspaceId))) throw new ApiError('NOT_FOUND', `No workspace ${workspaceId}`, { field: 'workspace_id' });
}
