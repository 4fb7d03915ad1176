import { DomainError, MEMBER_ROLES_BUILTIN } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { sendMail } from '../../infra/mail/send';
import { outlastVouches } from '../../infra/cache/vouching';
import { assertRoleExists } from '../skills/roles';
import {
  changeOwnerCount,
  deleteMembership,
  getMembership,
  membershipsByUser,
  membershipsOfWorkspace,
  putMembershipIfAbsent,
  setMembershipRole,
  type StoredMembership,
} from './membership-repository';
import { deletePendingInvitation, getInvitation, invitationsOf, markInvitationAccepted, putInvitation, type StoredInvitation } from './invitation-repository';
import type { StoredUser } from './user-repository';
import { newId, randomToken } from './secrets';
import { storedHash } from '../../infra/secrets/stored-hash';
import { normalizeEmail } from './users';

/** A person's place in a workspace. */
export interface Membership {
  workspaceId: string;
  workspaceName: string;
  role: string;
}

export interface WorkspaceRef {
  id: string;
  name: string;
}

export type { StoredInvitation } from './invitation-repository';
export type { StoredMembership } from './membership-repository';

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

const toMembership = (stored: StoredMembership): Membership => ({ workspaceId: stored.workspaceId, workspaceName: stored.workspaceName, role: stored.role });

/** Every workspace the person belongs to, by name. */
export async function membershipsOfUser(deps: Deps, userId: string): Promise<Membership[]> {
  return (await membershipsByUser(deps, userId)).map(toMembership).sort((a, b) => a.workspaceName.localeCompare(b.workspaceName));
}

/** The person's membership of one workspace, or undefined when they are not a member. */
export async function membershipOf(deps: Deps, workspaceId: string, userId: string): Promise<Membership | undefined> {
  const stored = await getMembership(deps, workspaceId, userId);
  return stored ? toMembership(stored) : undefined;
}

/** A member as a teammate of conversations (their id and display name), or undefined when they are not a member. */
export async function memberAsTeammate(deps: Deps, workspaceId: string, userId: string): Promise<{ id: string; name: string } | undefined> {
  const stored = await getMembership(deps, workspaceId, userId);
  return stored && { id: stored.userId, name: stored.displayName || stored.email };
}

const isPending = (invitation: StoredInvitation, now: Date) => !invitation.acceptedAt && invitation.expiresAt > now.toISOString();

export async function hasPendingInvitation(deps: Deps, email: string): Promise<boolean> {
  const now = deps.now();
  return (await invitationsOf(deps, { email: normalizeEmail(email) })).some((invitation) => isPending(invitation, now));
}

/** Members (by e-mail) and the invitations still open. */
export async function listMembers(deps: Deps, workspaceId: string): Promise<{ members: StoredMembership[]; invitations: StoredInvitation[] }> {
  const now = deps.now();
  const [members, invitations] = await Promise.all([membershipsOfWorkspace(deps, workspaceId), invitationsOf(deps, { workspaceId })]);
  return {
    members: members.sort((a, b) => a.joinedAt.localeCompare(b.joinedAt)),
    invitations: invitations.filter((invitation) => isPending(invitation, now)),
  };
}

/** owner, admin, member, or a role the company created (VALIDATION_ERROR on field role otherwise). */
async function assertMemberRole(deps: Deps, workspaceId: string, role: string): Promise<void> {
  if ((MEMBER_ROLES_BUILTIN as readonly string[]).includes(role)) return;
  if (role === 'public') throw new DomainError('VALIDATION_ERROR', 'public is the role of widget visitors, not of members', { field: 'role' });
  await assertRoleExists(deps, workspaceId, role);
}

/** Adds the person with `role` unless they are a member already; counts a new owner. The membership they have. */
export async function addMember(deps: Deps, workspace: WorkspaceRef, user: StoredUser, role: string): Promise<Membership> {
  const membership: StoredMembership = {
    workspaceId: workspace.id,
    userId: user.id,
    role,
    workspaceName: workspace.name,
    email: user.email,
    displayName: user.displayName,
    joinedAt: deps.now().toISOString(),
  };
  if (await putMembershipIfAbsent(deps, membership)) {
    if (role === 'owner') await changeOwnerCount(deps, workspace.id, 1);
    return toMembership(membership);
  }
  const existing = await getMembership(deps, workspace.id, user.id);
  if (!existing) throw new Error('memberships: a membership exists and does not');
  return toMembership(existing);
}

/**
 * Invites an address with a role: the invitation (its token only hashed) and the link to accept it, which is
 * also mailed. `origin` is where the dashboard is.
 */
export async function invite(
  deps: Deps,
  workspace: WorkspaceRef,
  input: { email: string; role: string; origin: string },
): Promise<{ invitation: StoredInvitation; inviteUrl: string }> {
  await assertMemberRole(deps, workspace.id, input.role);
  const email = normalizeEmail(input.email);
  const token = randomToken();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  const invitation: StoredInvitation = {
    tokenHash: storedHash(token),
    id: newId('inv'),
    workspaceId: workspace.id,
    workspaceName: workspace.name,
    email,
    role: input.role,
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
    expiresAtEpoch: Math.floor(expiresAt.getTime() / 1000),
  };
  await putInvitation(deps, invitation);
  const inviteUrl = `${input.origin}/dashboard/?invitation=${token}&email=${encodeURIComponent(email)}`;
  await sendMail(deps, {
    to: email,
    subject: `You are invited to ${workspace.name}`,
    text: [
      `You are invited to join ${workspace.name} as ${input.role}.`,
      '',
      'Accept the invitation (you sign in with a code we e-mail you; no password):',
      inviteUrl,
      '',
      `The invitation expires on ${expiresAt.toISOString().slice(0, 10)}.`,
    ].join('\n'),
  });
  return { invitation, inviteUrl };
}

/** Accepts an invitation addressed to the signed-in person: their membership (an existing one stays as it is). */
export async function acceptInvitation(deps: Deps, token: string, user: StoredUser): Promise<Membership> {
  const invitation = await getInvitation(deps, storedHash(token));
  const now = deps.now();
  if (!invitation || (!invitation.acceptedAt && invitation.expiresAt <= now.toISOString())) {
    throw new DomainError('NOT_FOUND', 'This invitation does not exist or has expired; ask for a new one', { field: 'token' });
  }
  if (normalizeEmail(invitation.email) !== normalizeEmail(user.email)) {
    throw new DomainError('FORBIDDEN', `This invitation is addressed to another e-mail address; sign in as ${invitation.email}`, { field: 'token' });
  }
  const workspace = { id: invitation.workspaceId, name: invitation.workspaceName };
  if (invitation.acceptedAt) {
    // Accepted before: by this same person (the address matched), so their membership answers; a member removed
    // since cannot come back through the old link.
    const existing = await membershipOf(deps, workspace.id, user.id);
    if (existing) return existing;
    throw new DomainError('NOT_FOUND', 'This invitation was already used', { field: 'token' });
  }
  // The membership first, then the invitation marked used: a crash in between leaves the link working for the retry,
  // which finds the membership (adding it is idempotent) and marks the invitation.
  const membership = await addMember(deps, workspace, user, invitation.role);
  await markInvitationAccepted(deps, invitation.tokenHash, now.toISOString());
  return membership;
}

/** Cancels a pending invitation of the workspace: its link stops working (invitations/accept answers NOT_FOUND). */
export async function revokeInvitation(deps: Deps, workspaceId: string, invitationId: string): Promise<StoredInvitation> {
  const invitation = (await invitationsOf(deps, { workspaceId })).find((candidate) => candidate.id === invitationId);
  const gone = () => new DomainError('NOT_FOUND', `No pending invitation ${invitationId} in this workspace`, { field: 'invitation_id' });
  if (!invitation || !isPending(invitation, deps.now())) throw gone();
  if (!(await deletePendingInvitation(deps, invitation.tokenHash))) throw gone();
  return invitation;
}

const lastOwner = () =>
  new DomainError('LAST_OWNER', 'The last owner of a workspace cannot be removed or demoted; make someone else owner first', { field: 'user_id' });
const noMember = (userId: string) => new DomainError('NOT_FOUND', `No member ${userId} in this workspace`, { field: 'user_id' });

/** Changes a member's role; the last owner is never demoted (LAST_OWNER). */
export async function changeMemberRole(deps: Deps, workspaceId: string, userId: string, role: string): Promise<StoredMembership> {
  await assertMemberRole(deps, workspaceId, role);
  const current = await getMembership(deps, workspaceId, userId);
  if (!current) throw noMember(userId);
  if (current.role === role) return current;
  // The owner count moves first: a demotion it refuses never happens; a role write that then fails puts it back.
  if (current.role === 'owner' && !(await changeOwnerCount(deps, workspaceId, -1))) throw lastOwner();
  const updated = await setMembershipRole(deps, workspaceId, userId, current.role, role);
  if (!updated) {
    if (current.role === 'owner') await changeOwnerCount(deps, workspaceId, 1);
    throw new DomainError('NOT_FOUND', 'The member changed or left meanwhile; reload and try again', { field: 'user_id' });
  }
  if (role === 'owner') await changeOwnerCount(deps, workspaceId, 1);
  // The member's MCP connections act for the new role from the next call on (connections/grants.ts: verifyAccessToken).
  await outlastVouches();
  return updated;
}

/** Removes a member; the last owner is never removed (LAST_OWNER). */
export async function removeMember(deps: Deps, workspaceId: string, userId: string): Promise<void> {
  const current = await getMembership(deps, workspaceId, userId);
  if (!current) throw noMember(userId);
  if (current.role === 'owner' && !(await changeOwnerCount(deps, workspaceId, -1))) throw lastOwner();
  if (!(await deleteMembership(deps, workspaceId, userId, current.role))) {
    if (current.role === 'owner') await changeOwnerCount(deps, workspaceId, 1);
    throw new DomainError('NOT_FOUND', 'The member changed or left meanwhile; reload and try again', { field: 'user_id' });
  }
  // The member's MCP connections fail from the next call on (connections/grants.ts: verifyAccessToken).
  await outlastVouches();
}
