import type { Deps } from '../../infra/deps';
import { membershipsOfUser } from '../people/members';
import { findUserByEmail } from '../people/users';
import { recordAudit } from './audit';

/** A sign-in, a failed one, a passkey added or removed: about a person, not one workspace. */
export interface PersonEvent {
  /** The person, when known; a failed sign-in names the address tried. */
  user?: { id: string; email: string };
  email: string;
  action: 'auth.signed_in' | 'auth.sign_in_failed' | 'auth.passkey_added' | 'auth.passkey_removed';
  after: Record<string, unknown>;
  sourceIp: string | null;
  userAgent: string | null;
}

/**
 * Records a person's access event in the audit log of every workspace they belong to (each company sees its own
 * members' sign-ins). An address that belongs to nobody has no workspace to record it in; its attempts meet the
 * sign-in rate limits instead.
 */
export async function recordPersonEvent(deps: Deps, event: PersonEvent): Promise<void> {
  const user = event.user ?? (await findUserByEmail(deps, event.email).then((found) => (found ? { id: found.id, email: found.email } : undefined)));
  if (!user) return;
  const memberships = await membershipsOfUser(deps, user.id);
  await Promise.all(
    memberships.map((membership) =>
      recordAudit(deps, {
        workspaceId: membership.workspaceId,
        actor: { type: 'user', id: user.id, name: user.email },
        action: event.action,
        target: { type: 'user', id: user.id, name: user.email },
        after: event.after,
        sourceIp: event.sourceIp,
        userAgent: event.userAgent,
      }),
    ),
  );
}
