import type { Deps } from '../../infra/deps';
import { getUser, putUserIfEmailFree, userIdOfEmail, type StoredUser } from './repository';
import { newId } from './secrets';

export type { StoredUser } from './repository';
export { getUser } from './repository';

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
