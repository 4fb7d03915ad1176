import { ApiError } from '@service/shared';
import {
  acceptInvitation,
  changeMemberRole,
  invite,
  listMembers,
  removeMember,
  revokeInvitation,
  type StoredInvitation,
  type StoredMembership,
} from '../../../domains/people/members';
import { getUser } from '../../../domains/people/users';
import { clientOf, sessionOf } from './auth';
import type { EndpointHandlers } from './types';

type MemberEndpoints = 'membersList' | 'membersInvite' | 'membersUpdate' | 'membersRemove' | 'membersInvitationRevoke' | 'invitationsAccept';

const memberResponse = (member: StoredMembership) => ({
  user_id: member.userId,
  email: member.email,
  display_name: member.displayName,
  role: member.role,
  joined_at: member.joinedAt,
});
const invitationResponse = (invitation: StoredInvitation) => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  created_at: invitation.createdAt,
  expires_at: invitation.expiresAt,
});

export const memberEndpoints: EndpointHandlers<MemberEndpoints> = {
  membersList: async ({ deps, workspace }) => {
    const { members, invitations } = await listMembers(deps, workspace.id);
    return { data: { members: members.map(memberResponse), invitations: invitations.map(invitationResponse) } };
  },

  membersInvite: async ({ deps, workspace, body, client }) => {
    const { invitation, inviteUrl } = await invite(deps, workspace, { email: body.email, role: body.role, origin: clientOf(client).origin });
    return { data: { invitation: invitationResponse(invitation), invite_url: inviteUrl }, msg: `Invitation sent to ${invitation.email}` };
  },

  membersUpdate: async ({ deps, workspace, body }) => ({
    data: { member: memberResponse(await changeMemberRole(deps, workspace.id, body.user_id, body.role)) },
    msg: `Role changed to ${body.role}`,
  }),

  membersRemove: async ({ deps, workspace, body }) => {
    await removeMember(deps, workspace.id, body.user_id);
    return { data: { removed: true as const, user_id: body.user_id }, msg: 'Member removed' };
  },

  membersInvitationRevoke: async ({ deps, workspace, body }) => {
    const invitation = await revokeInvitation(deps, workspace.id, body.invitation_id);
    return {
      data: { revoked: true as const, invitation_id: invitation.id },
      msg: `The invitation to ${invitation.email} is cancelled; its link no longer works`,
    };
  },

  invitationsAccept: async ({ deps, body, session }) => {
    const user = await getUser(deps, sessionOf(session).userId);
    if (!user) throw new ApiError('API_KEY_REQUIRED', 'Sign in again');
    const membership = await acceptInvitation(deps, body.token, user);
    return {
      data: { workspace: { id: membership.workspaceId, name: membership.workspaceName, role: membership.role } },
      msg: `You joined ${membership.workspaceName}`,
    };
  },
};
