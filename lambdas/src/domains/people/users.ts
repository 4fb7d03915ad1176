import type { Deps } from '../../infra/deps';
import { DomainError } from '@service/shared';
import { getUser, putUserIfEmailFree, setUserDisplayName, userIdOfEmail, type StoredUser } from './user-repository';
import { copyDisplayNameToMemberships } from './membership-repository';
import { copyDisplayNameToSessions } from './session-repository';
import { newId } from './secrets';

/**
 * The people domain: users, memberships and roles, invitations, e-mail sign-in codes, sessions and passkeys, a
 * `<thing>-repository.ts` for each of its tables.
 */
export type { StoredUser } from './user-repository';
export { getUser } from './user-repository';

/** Addresses are kept lower-case, trimmed: one address, one person. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export async function findUserByEmail(deps: Deps, email: string): Promise<StoredUser | undefined> {
  const userId = await userIdOfEmail(deps, normalizeEmail(email));
  return userId ? getUser(deps, userId) : undefined;
}

/** The person with this address, created on first need (display name: the address's local part until they change it). */
export async function ensureUser(deps: Deps, email: string): Promise<StoredUser> {
  const address = normalizeEmail(email);
  const existing = await findUserByEmail(deps, address);
  if (existing) return existing;
  const user: StoredUser = { id: newId('usr'), email: address, displayName: address.split('@')[0] ?? address, createdAt: deps.now().toISOString() };
  if (await putUserIfEmailFree(deps, user)) return user;
  // Someone created the same address at the same moment: theirs stands.
  const winner = await findUserByEmail(deps, address);
  if (!winner) throw new Error(`users: the address item of ${user.id} exists without its user`);
  return winner;
}

/** Changes the name other members see (already trimmed and checked by the contract); their memberships and sessions show it at once. */
export async function changeDisplayName(deps: Deps, userId: string, displayName: string): Promise<StoredUser> {
  const user = await setUserDisplayName(deps, userId, displayName);
  if (!user) throw new DomainError('NOT_FOUND', 'This account no longer exists; sign in again');
  // The copies beside the person's memberships and sessions follow; a gone item stays gone.
  await Promise.all([copyDisplayNameToMemberships(deps, userId, displayName), copyDisplayNameToSessions(deps, userId, displayName)]);
  return user;
}
