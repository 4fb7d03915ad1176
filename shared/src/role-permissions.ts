/**
 * People's platform roles and what each may do. A member's role is `owner`, `admin`, `member`, or a role the company
 * defined (roles/create): a company role acts as `member` for platform permissions, and is the role agents act for
 * when this person commands them. An API key acts as `admin`.
 */
export const MEMBER_ROLES_BUILTIN = ['owner', 'admin', 'member'] as const;
export type BuiltinMemberRole = (typeof MEMBER_ROLES_BUILTIN)[number];

/**
 * read: lists and gets (knowledge search included); command: give agents commands; manage: keys, webhooks, agents,
 * skills, grants; members: people; knowledge:manage: add, sync and delete knowledge sources, files and answers;
 * conversations:reply: take part in visitors' conversations (claim, reply, note, hand back, close); visitors:manage:
 * export and erase a visitor's data, set how long conversations are kept, read the erasure audit; audit: read the
 * workspace's audit log (owners and admins).
 */
export type Permission = 'read' | 'command' | 'manage' | 'members' | 'knowledge:manage' | 'conversations:reply' | 'visitors:manage' | 'audit';
export const PERMISSIONS = [
  'read',
  'command',
  'manage',
  'members',
  'knowledge:manage',
  'conversations:reply',
  'visitors:manage',
  'audit',
] as const satisfies readonly Permission[];

/** Who may call an endpoint: a permission of the caller's role, `public` (no credential), `session` (a signed-in person, no workspace). */
export type EndpointAccess = Permission | 'public' | 'session';

/** The role an API key acts with. */
export const API_KEY_ROLE = 'admin';

const ALLOWED: Record<BuiltinMemberRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: ['read', 'command', 'manage', 'knowledge:manage', 'conversations:reply', 'visitors:manage', 'audit'],
  member: ['read', 'command', 'conversations:reply'],
};

const isBuiltin = (role: string): role is BuiltinMemberRole => (MEMBER_ROLES_BUILTIN as readonly string[]).includes(role);

/** Whether a member with `role` may act with `permission`; a company-defined role is a member here. */
export function roleMay(role: string, permission: Permission): boolean {
  return ALLOWED[isBuiltin(role) ? role : 'member'].includes(permission);
}
