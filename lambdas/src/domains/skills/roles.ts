import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { Action } from '../../infra/store/idempotency';
import { getSkillItem, putSkillItem, querySkillItems } from './repository';

/** Roles every workspace has. `public` is an anonymous widget visitor. */
export const BUILTIN_ROLES = {
  owner: 'Owns the company account',
  admin: 'Administers the company; API-key commands run as admin',
  member: 'A member of the company',
  public: 'An anonymous visitor of the chat widget',
} as const;
export type BuiltinRole = keyof typeof BUILTIN_ROLES;

/** The role an agents/command run acts as: the API key is the company's own automation. */
export const API_COMMAND_ROLE: BuiltinRole = 'admin';

export interface Role {
  name: string;
  description: string;
  builtin: boolean;
  createdAt: string | null;
}

const isBuiltin = (name: string): name is BuiltinRole => Object.hasOwn(BUILTIN_ROLES, name);

export async function listRoles(deps: Deps, workspaceId: string): Promise<Role[]> {
  const custom = await querySkillItems<{ name: string; description: string; createdAt: string }>(deps, workspaceId, 'role');
  return [
    ...Object.entries(BUILTIN_ROLES).map(([name, description]) => ({ name, description, builtin: true, createdAt: null })),
    ...custom.map(({ name, description, createdAt }) => ({ name, description, builtin: false, createdAt })),
  ];
}

/** Creates a role; the retry of an idempotent create whose first attempt wrote it (same action time) answers that role. */
export async function createRole(deps: Deps, workspaceId: string, name: string, description: string, action: Action = { at: deps.now() }): Promise<Role> {
  if (isBuiltin(name)) throw new DomainError('VALIDATION_ERROR', `${name} is a built-in role`, { field: 'name' });
  const createdAt = action.at.toISOString();
  if (!(await putSkillItem(deps, workspaceId, `role#${name}`, { name, description, createdAt }, true))) {
    const existing = action.seed ? await getSkillItem<{ description: string; createdAt: string }>(deps, workspaceId, `role#${name}`) : undefined;
    if (existing?.createdAt !== createdAt) throw new DomainError('VALIDATION_ERROR', `The role ${name} already exists`, { field: 'name' });
    return { name, description: existing.description, builtin: false, createdAt };
  }
  return { name, description, builtin: false, createdAt };
}

export async function assertRoleExists(deps: Deps, workspaceId: string, name: string): Promise<void> {
  if (isBuiltin(name) || (await getSkillItem(deps, workspaceId, `role#${name}`))) return;
  throw new DomainError('NOT_FOUND', `No role ${name}; see roles/list`, { field: 'role' });
}
