import * as z from 'zod';
import { SKILL_NAME_PATTERN } from '@service/skill-sdk/naming';
import type { EndpointContract } from './contract';
import { isoDateTime, secretAlreadyShown, secretShownOnce, text, uuid } from './primitives';

/** The skill catalog (skills/list) and installing a skill on an agent. */
export const SkillTool = z.object({ name: z.string(), capability: z.string(), description: z.string() });
export const Skill = z
  .object({
    code: z.string(),
    name: z.string(),
    description: z.string(),
    version: z.string(),
    source: z.enum(['builtin', 'registered']),
    tools: z.array(SkillTool),
  })
  .meta({ id: 'Skill' });

export const SkillInstallBody = z.object({ agent_id: uuid('agent_id'), skill_code: z.string().min(1).max(64) }).strict();
export const SkillInstallation = z.object({ agent_id: z.uuid(), skill_code: z.string(), installed: z.boolean() });

/** A role name: built-in (owner, admin, member, public) or one the company created. */
const roleName = z
  .string({ error: 'role is required' })
  .regex(/^[a-z][a-z0-9_-]{1,39}$/, { error: 'a role name is 2-40 lowercase letters, digits, _ or -, starting with a letter' });
/** A capability `code.action` (the code a skill name, as the skill SDK defines it): the unit of grants. */
const capability = z.string({ error: 'capability is required' }).regex(new RegExp(`^${SKILL_NAME_PATTERN.source.slice(1, -1)}\\.[a-z0-9_-]{1,64}$`), {
  error: 'capability must look like code.action, e.g. contacts.create',
});

export const SkillRegisterBody = z
  .object({
    url: z
      .url({ error: 'url must be an absolute URL' })
      .max(2048)
      .meta({ description: 'The MCP endpoint (https in production), or the base URL of a skill that serves GET /manifest' }),
    code: z
      .string()
      .regex(SKILL_NAME_PATTERN, { error: 'code must be lowercase letters, digits, _ or -' })
      .optional()
      .meta({ description: 'Skill code when the server has no manifest' }),
    name: text(80).optional(),
    bearer: z.string().min(1).max(512).optional().meta({ description: "The skill's own bearer, sent to it on every MCP request" }),
    turn_token_secret: z.string().min(32).max(512).optional().meta({
      description: 'The turn-token key the skill already runs with (its SKILL_TURN_TOKEN_SECRET); without it the platform generates one and returns it',
    }),
  })
  .strict();

export const Role = z.object({ name: z.string(), description: z.string(), builtin: z.boolean(), created_at: isoDateTime.nullable() }).meta({ id: 'Role' });
export const RoleCreateBody = z.object({ name: roleName, description: z.string().trim().max(200).default('') }).strict();

const requiresVerifiedVisitor = z
  .boolean()
  .meta({ description: "The tool runs for a widget visitor only with a valid signed visitor token (data-user-token): for actions on a customer's own data" });
export const Grant = z
  .object({ role: z.string(), capability: z.string(), requires_verified_visitor: requiresVerifiedVisitor, created_at: isoDateTime })
  .meta({ id: 'Grant' });
export const GrantBody = z.object({ role: roleName, capability }).strict();
export const GrantCreateBody = GrantBody.extend({ requires_verified_visitor: requiresVerifiedVisitor.default(false) }).strict();
export const GrantsQuery = z.object({ role: roleName.optional() });

/** Registering skills, roles and capability grants ("Company, Roles & Access"); spread into ENDPOINTS. */
export const SKILL_ACCESS_ENDPOINTS = {
  skillsRegister: {
    path: 'skills/register',
    method: 'POST',
    summary: 'Register an MCP server by URL as a skill of the workspace (reads its manifest or tools/list); its turn-token key is returned once',
    body: SkillRegisterBody,
    data: z.object({ skill: Skill, turn_token_secret: secretShownOnce, secret_already_shown: secretAlreadyShown }),
    status: 201,
    idempotent: true,
    secretFields: ['turn_token_secret'],
    access: 'manage',
  },
  rolesList: {
    path: 'roles/list',
    method: 'GET',
    summary: 'Built-in and company-defined roles',
    data: z.object({ roles: z.array(Role) }),
    status: 200,
    access: 'read',
  },
  rolesCreate: {
    path: 'roles/create',
    method: 'POST',
    summary: 'Define a company role',
    body: RoleCreateBody,
    data: z.object({ role: Role }),
    status: 201,
    idempotent: true,
    access: 'manage',
  },
  grantsList: {
    path: 'grants/list',
    method: 'GET',
    summary: 'Capabilities granted to roles',
    query: GrantsQuery,
    data: z.object({ grants: z.array(Grant) }),
    status: 200,
    access: 'read',
  },
  grantsCreate: {
    path: 'grants/create',
    method: 'POST',
    summary: 'Grant a capability code.action to a role; the tool becomes visible to agents acting for that role',
    body: GrantCreateBody,
    data: z.object({ grant: Grant }),
    status: 201,
    idempotent: true,
    access: 'manage',
  },
  grantsRevoke: {
    path: 'grants/revoke',
    method: 'POST',
    summary: 'Revoke a capability from a role',
    body: GrantBody,
    data: z.object({ revoked: z.literal(true), role: z.string(), capability: z.string() }),
    status: 200,
    access: 'manage',
  },
} as const satisfies Record<string, EndpointContract>;
