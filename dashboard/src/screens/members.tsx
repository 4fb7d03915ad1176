import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { useApp } from '../session';
import { ActionButton, ActionForm, Confirm, DataTable, CopyButton, ErrorNote, Loading, RoleNote, Screen } from '../components';
import { useAction, useLoad } from '../hooks';
import { when } from '../format';

async function loadMembers() {
  const [people, roles] = await Promise.all([get('members/list'), get('roles/list')]);
  const choices = ['owner', 'admin', 'member', ...roles.roles.filter((role) => !role.builtin).map((role) => role.name)];
  return { ...people, choices };
}

export default function Members() {
  const app = useApp();
  const list = useLoad(loadMembers, []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  /** The link of the invitation just sent (until it is cancelled). */
  const [invited, setInvited] = useState<{ id: string; url: string } | null>(null);
  /** What the confirmation asks about: removing a member, or cancelling an invitation. */
  const [confirming, setConfirming] = useState<{ kind: 'member' | 'invitation'; id: string; email: string } | null>(null);
  const invite = useAction(async () => {
    const created = await post('members/invite', { email: email.trim(), role });
    setInvited({ id: created.invitation.id, url: created.invite_url });
    setEmail('');
    list.reload();
  });
  const change = useAction(async (userId: string, next: string) => {
    await post('members/update', { user_id: userId, role: next });
    list.reload();
  });
  const remove = useAction(async (userId: string) => {
    await post('members/remove', { user_id: userId });
    list.reload();
  });
  const cancel = useAction(async (invitationId: string) => {
    await post('members/invitation_revoke', { invitation_id: invitationId });
    setInvited((shown) => (shown?.id === invitationId ? null : shown));
    list.reload();
  });
  const mayManage = app.may('members');
  return (
    <Screen title="Members" intro="The people of this workspace and what their role lets them do.">
      <RoleNote permission="members" action="inviting, changing roles or removing people" />
      <ActionForm class="panel row wrap" onSubmit={invite.run}>
        <span class="grow">
          <label for="invite-email">E-mail address</label>
          <input id="invite-email" type="email" required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        </span>
        <span>
          <label for="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(event) => setRole(event.currentTarget.value)}>
            {(list.data?.choices ?? ['owner', 'admin', 'member']).map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </span>
        <ActionButton type="submit" permission="members" variant="primary" busy={invite.busy}>
          Invite
        </ActionButton>
      </ActionForm>
      {invited ? (
        <p class="note" role="status">
          Invitation sent. The link: <span class="mono break">{invited.url}</span> <CopyButton text={invited.url} label="Copy link" />
        </p>
      ) : null}
      <ErrorNote error={invite.error ?? change.error ?? remove.error ?? cancel.error} />
      {list.loading && !list.data ? <Loading what="members" /> : null}
      <ErrorNote error={list.error} />
      <DataTable caption="Members" columns={['Person', 'Role', { label: 'Joined', class: 'wide-only' }, '']}>
        {list.data?.members.map((member) => (
          <tr key={member.user_id}>
            <td>
              {member.display_name || member.email}
              <span class="muted small block">{member.email}</span>
            </td>
            <td>
              <select
                aria-label={`Role of ${member.email}`}
                value={member.role}
                // A role change answers once no MCP connection of the member acts for the old role (about a second).
                disabled={!mayManage || change.busy}
                aria-describedby={mayManage ? undefined : 'role-note-members'}
                onChange={(event) => void change.run(member.user_id, event.currentTarget.value)}
              >
                {[...new Set([...(list.data?.choices ?? []), member.role])].map((choice) => (
                  <option key={choice} value={choice}>
                    {choice}
                  </option>
                ))}
              </select>
            </td>
            <td class="wide-only">{when(member.joined_at)}</td>
            <td>
              <ActionButton
                permission="members"
                variant="danger"
                label={`Remove ${member.email}`}
                onClick={() => setConfirming({ kind: 'member', id: member.user_id, email: member.email })}
              >
                Remove
              </ActionButton>
            </td>
          </tr>
        ))}
      </DataTable>
      {list.data && list.data.invitations.length > 0 ? (
        <>
          <h2>Pending invitations</h2>
          <ul class="invitations">
            {list.data.invitations.map((invitation) => (
              <li key={invitation.id} class="row spread">
                <span>
                  {invitation.email} as {invitation.role}, until {when(invitation.expires_at)}
                </span>
                <ActionButton
                  permission="members"
                  variant="danger"
                  busy={cancel.busy}
                  label={`Cancel the invitation to ${invitation.email}`}
                  onClick={() => setConfirming({ kind: 'invitation', id: invitation.id, email: invitation.email })}
                >
                  Cancel
                </ActionButton>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <Confirm
        subject={confirming}
        title={confirming?.kind === 'invitation' ? 'Cancel this invitation?' : 'Remove this member?'}
        body={(subject) =>
          subject.kind === 'invitation'
            ? `The link sent to ${subject.email} stops working at once. You can invite them again later.`
            : `${subject.email} loses access to this workspace at once.`
        }
        confirmLabel={confirming?.kind === 'invitation' ? 'Cancel invitation' : 'Remove member'}
        dismissLabel={confirming?.kind === 'invitation' ? 'Keep it' : 'Cancel'}
        onClose={() => setConfirming(null)}
        onConfirm={(subject) => void (subject.kind === 'invitation' ? cancel.run(subject.id) : remove.run(subject.id))}
      />
    </Screen>
  );
}
