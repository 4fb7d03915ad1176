import * as z from 'zod';
import type { EndpointContract } from './contract';
import { email, isoDateTime } from './primitives';
import { WorkspaceMembership } from './auth';

/** Members of a workspace and invitations; spread into ENDPOINTS. */

/** owner, admin, member, or a company-defined role (roles/create). */
const memberRole = z
  .string({ error: 'role is required' })
  .regex(/^[a-z][a-z0-9_-]{1,39}$/, { error: 'role is owner, admin, member or a role the company created' })
  .refine((role) => role !== 'public', { error: 'public is the role of widget visitors, not of members' });
const userId = z.string({ error: 'user_id is required' }).regex(/^usr_[0-9A-Za-z]{8,64}$/, { error: 'user_id looks like usr_…' });

export const Member = z
  .object({ user_id: z.string(), email: z.string(), display_name: z.string(), role: z.string(), joined_at: isoDateTime })
  .meta({ id: 'Member' });
export const Invitation = z
  .object({ id: z.string(), email: z.string(), role: z.string(), created_at: isoDateTime, expires_at: isoDateTime })
  .meta({ id: 'Invitation' });

export const InviteBody = z.object({ email: email.transform((value) => value.trim().toLowerCase()), role: memberRole }).strict();
export const MemberUpdateBody = z.object({ user_id: userId, role: memberRole }).strict();
export const MemberRemoveBody = z.object({ user_id: userId }).strict();
export const InvitationRevokeBody = z
  .object({ invitation_id: z.string({ error: 'invitation_id is required' }).regex(/^inv_[0-9A-Za-z]{8,64}$/, { error: 'invitation_id looks like inv_…' }) })
  .strict();
export const InvitationAcceptBody = z.object({ token: z.string({ error: 'token is required' }).min(16).max(200) }).strict();

export const PEOPLE_ENDPOINTS = {
  membersList: {
    path: 'members/list',
    method: 'GET',
    summary: 'Members of the workspace and pending invitations',
    data: z.object({ members: z.array(Member), invitations: z.array(Invitation) }),
    status: 200,
    access: 'read',
  },
  membersInvite: {
    path: 'members/invite',
    method: 'POST',
    summary: 'Invite a person by e-mail with a role; mails them the invitation link',
    body: InviteBody,
    data: z.object({ invitation: Invitation, invite_url: z.string() }),
    status: 201,
    access: 'members',
  },
  membersUpdate: {
    path: 'members/update',
    method: 'POST',
    summary: "Change a member's role (the last owner cannot be demoted: 409 LAST_OWNER)",
    body: MemberUpdateBody,
    data: z.object({ member: Member }),
    status: 200,
    access: 'members',
  },
  membersRemove: {
    path: 'members/remove',
    method: 'POST',
    summary: 'Remove a member from the workspace (never the last owner: 409 LAST_OWNER)',
    body: MemberRemoveBody,
    data: z.object({ removed: z.literal(true), user_id: z.string() }),
    status: 200,
    access: 'members',
  },
  membersInvitationRevoke: {
    path: 'members/invitation_revoke',
    method: 'POST',
    summary: 'Cancel a pending invitation; its link stops working',
    body: InvitationRevokeBody,
    data: z.object({ revoked: z.literal(true), invitation_id: z.string() }),
    status: 200,
    access: 'members',
  },
  invitationsAccept: {
    path: 'invitations/accept',
    method: 'POST',
    summary: 'Accept an invitation addressed to the signed-in person',
    body: InvitationAcceptBody,
    data: z.object({ workspace: WorkspaceMembership }),
    status: 200,
    access: 'session',
  },
} as const satisfies Record<string, EndpointContract>;
