import { ApiError, ENDPOINTS, newUuid, schemas, type EndpointName } from '@service/shared';
import * as z from 'zod';
import type { Deps } from '../../infra/deps';
import { createApiKey, toApiKeyResponse } from '../../domains/access/api-keys';
import { getWorkspace, PLANS, putWorkspaceIfAbsent, type Plan } from '../../domains/access/workspaces';
import { seedBuiltinGrants } from '../../domains/skills/seed-grants';
import { addMember, invite, type WorkspaceRef } from '../../domains/people/members';
import { ensureUser } from '../../domains/people/users';
import { skillAccessEndpoints } from '../rest-api/endpoints/skills-access';
import type { Client, EndpointHandler } from '../rest-api/endpoints/types';
import { auditedRunner } from '../rest-api/middleware/audit';
import type { HttpEvent } from '../../infra/http/event';

/**
 * The company endpoints an operator may call for any workspace, named by `workspace_id` in the body. Their handlers
 * are taken from their own module, so this Lambda bundles only what they reach.
 */
const OPERATOR_ENDPOINTS = ['skillsRegister', 'rolesCreate', 'grantsCreate', 'grantsRevoke'] as const satisfies readonly EndpointName[];

export interface AdminRoute {
  endpoint: (typeof OPERATOR_ENDPOINTS)[number];
  body: z.ZodType<{ workspace_id: string }>;
}

/**
 * Platform-level administration with the master system key (operators and provisioning, never skills): the REST
 * endpoints themselves, at the same `<resource>/<action>`, with the workspace named in the body.
 */
export const ADMIN_ROUTES: ReadonlyMap<string, AdminRoute> = new Map(
  OPERATOR_ENDPOINTS.map((endpoint) => [
    ENDPOINTS[endpoint].path,
    { endpoint, body: ENDPOINTS[endpoint].body.extend({ workspace_id: schemas.uuid('workspace_id') }) },
  ]),
);

/**
 * Runs the route's REST endpoint in the named workspace (NOT_FOUND on field workspace_id when there is none), recorded
 * in the workspace's audit log as the REST door records it, the actor the platform's operator (the master key).
 */
export async function runAdminRoute(deps: Deps, lang: string, route: AdminRoute, body: { workspace_id: string }, event: HttpEvent, client: Client) {
  const workspace = await getWorkspace(deps, body.workspace_id);
  if (!workspace) throw new ApiError('NOT_FOUND', `No workspace ${body.workspace_id}`, { field: 'workspace_id' });
  const handle = skillAccessEndpoints[route.endpoint] as EndpointHandler<AdminRoute['endpoint']>;
  const input = { deps, workspace, lang, body: body as never, query: undefined, action: { at: deps.now() } };
  const { data, msg } = await auditedRunner(deps, skillAccessEndpoints)({ endpointName: route.endpoint, client }, event, handle, input);
  return { status: ENDPOINTS[route.endpoint].status, data, msg: msg ?? 'OK' };
}

const ProvisionBody = z
  .object({
    name: z.string().trim().min(1).max(120),
    plan: z.enum(Object.keys(PLANS) as [Plan, ...Plan[]]).default('partner'),
    /** The first owner (required: a workspace is never without one): a member at once, and mailed an invitation link. */
    owner_email: schemas.email.transform((value) => value.trim().toLowerCase()),
  })
  .strict();

/**
 * Provisioning a new company (a deployment has no other way to create its first workspace): the workspace, the
 * starting grants of the built-in skills, its first API key, shown once, and its first owner (`owner_email`), with
 * the invitation link that brings them to the dashboard (`origin`: where the dashboard is).
 */
export async function provisionWorkspace(deps: Deps, input: z.output<typeof ProvisionBody>, origin: string) {
  const workspace = {
    id: newUuid(),
    name: input.name,
    plan: input.plan,
    tokenLimit: PLANS[input.plan].tokenLimit,
    createdAt: deps.now().toISOString(),
    userHashAllowed: false,
  };
  await putWorkspaceIfAbsent(deps, workspace);
  await seedBuiltinGrants(deps, workspace.id);
  const { key, secret } = await createApiKey(deps, workspace.id, 'First key');
  const owner = await addFirstOwner(deps, workspace, input.owner_email, origin);
  return {
    data: {
      workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan, token_limit: workspace.tokenLimit, created_at: workspace.createdAt },
      key: toApiKeyResponse(key),
      secret,
      owner_email: owner.email,
      owner_invite_url: owner.inviteUrl,
    },
    msg: `Workspace ${workspace.name} created; copy the API key now, it is not shown again`,
  };
}

/** The first owner: a member at once (so the workspace is never without one), and invited by mail to sign in. */
async function addFirstOwner(deps: Deps, workspace: WorkspaceRef, email: string, origin: string) {
  await addMember(deps, workspace, await ensureUser(deps, email), 'owner');
  const { inviteUrl } = await invite(deps, workspace, { email, role: 'owner', origin });
  return { email, inviteUrl };
}

export const PROVISION_ROUTE = { name: 'workspaces/create', body: ProvisionBody } as const;
