// Until the people contract (shared/src/people.ts) is merged: the same rule PLAN.md states.
export type Permission = 'read' | 'command' | 'manage' | 'members';
const ALLOWED: Record<string, readonly Permission[]> = { owner: ['read', 'command', 'manage', 'members'], admin: ['read', 'command', 'manage'], member: ['read', 'command'] };
export const roleMay = (role: string, permission: Permission): boolean => (ALLOWED[role] ?? ALLOWED.member!).includes(permission);
