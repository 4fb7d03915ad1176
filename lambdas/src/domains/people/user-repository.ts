import type { Deps } from '../../infra/deps';
import { putIf, putNewItem, readItem, updateIf } from '../../infra/store/dynamo';

/**
 * The people domain's store calls for users (and the e-mail items that keep an address to one user): the `users` table.
 * Single-item conditional writes only; expiry is checked by the callers, in code.
 */

export interface StoredUser {
  id: string;
  email: string;
  displayName: string;
  createdAt: string;
}

const emailItemId = (email: string) => `email#${email}`;

export async function getUser(deps: Deps, userId: string): Promise<StoredUser | undefined> {
  return readItem<StoredUser>(deps.store, deps.store.table('users'), { id: userId });
}

export async function userIdOfEmail(deps: Deps, email: string): Promise<string | undefined> {
  return (await readItem<{ userId: string }>(deps.store, deps.store.table('users'), { id: emailItemId(email) }))?.userId;
}

/** Claims the address for `user` (a conditional put on the e-mail item), then writes the user: false when taken. */
export async function putUserIfEmailFree(deps: Deps, user: StoredUser): Promise<boolean> {
  const claimed = await putIf(
    deps.store,
    deps.store.table('users'),
    { id: emailItemId(user.email), userId: user.id },
    { ConditionExpression: 'attribute_not_exists(id)' },
  );
  if (!claimed) return false;
  await putNewItem(deps.store, deps.store.table('users'), user, 'id');
  return true;
}

/** The update that sets an item's copy of a display name, if the item (keyed by `keyAttribute`) still exists. */
export const setDisplayName = (displayName: string, keyAttribute: string) => ({
  UpdateExpression: 'SET displayName = :name',
  ConditionExpression: 'attribute_exists(#k)',
  ExpressionAttributeNames: { '#k': keyAttribute },
  ExpressionAttributeValues: { ':name': displayName },
});

/** Sets the display name of an existing user: the updated user, or undefined when there is none. */
export const setUserDisplayName = (deps: Deps, userId: string, displayName: string): Promise<StoredUser | undefined> =>
  updateIf<StoredUser>(deps.store, deps.store.table('users'), { id: userId }, setDisplayName(displayName, 'id'));
