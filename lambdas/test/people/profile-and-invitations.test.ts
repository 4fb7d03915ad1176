import { beforeAll, describe, expect, it } from 'vitest';
import { failStoreOnce } from '../support/faults';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { addPerson, call, signIn, type Person } from './helpers';

interface MemberList {
  members: { user_id: string; email: string; display_name: string }[];
  invitations: { id: string; email: string }[];
}

describe('a person names themselves; an owner cancels an invitation', () => {
  const ctx = usePlatform();
  let owner: Person;
  let admin: Person;
  beforeAll(async () => {
    await addPerson(ctx.platform, 'namer@demo.example', 'owner');
    await addPerson(ctx.platform, 'helper@demo.example', 'admin');
    owner = await signIn(ctx.platform, 'namer@demo.example');
    admin = await signIn(ctx.platform, 'helper@demo.example');
  });

  it('auth/profile_update changes the display name (trimmed, 1 to 80 characters) that the session and the member list show', async () => {
    const otherSession = await signIn(ctx.platform, 'namer@demo.example');
    const updated = await call(ctx.platform, 'auth/profile_update', { body: { display_name: '  Ayşe Yılmaz  ' }, headers: owner.headers });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(openApiProblems('authProfileUpdate', updated as ApiResponse<unknown>)).toEqual([]);
    expect(updated.body.data).toMatchObject({ user: { email: 'namer@demo.example', display_name: 'Ayşe Yılmaz' } });

    // Every session of the person and the workspace's member list show the new name.
    for (const person of [owner, otherSession]) {
      const session = await call<{ user: { display_name: string } }>(ctx.platform, 'auth/session', { headers: { cookie: person.cookie } });
      expect(session.body.data.user.display_name).toBe('Ayşe Yılmaz');
    }
    const members = (await call<MemberList>(ctx.platform, 'members/list', { headers: admin.headers })).body.data.members;
    expect(members).toContainEqual(expect.objectContaining({ email: 'namer@demo.example', display_name: 'Ayşe Yılmaz' }));

    for (const display_name of ['   ', 'x'.repeat(81), 'tab\there']) {
      const refused = await call(ctx.platform, 'auth/profile_update', { body: { display_name }, headers: owner.headers });
      expect(refused.status, display_name).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'display_name' });
    }
    expect((await call(ctx.platform, 'auth/profile_update', { body: { display_name: 'y'.repeat(80) }, headers: admin.headers })).status).toBe(200);
    // A person's own name only: with no session (an API key acts for no person), and without the CSRF token, no.
    expect((await ctx.api('auth/profile_update/', { body: { display_name: 'Key' } })).status).toBe(403);
    const { 'x-csrf-token': _, ...noCsrf } = owner.headers;
    expect((await call(ctx.platform, 'auth/profile_update', { body: { display_name: 'Forged' }, headers: noCsrf })).status).toBe(403);
  });

  it('members/invitation_revoke cancels a pending invitation: the link stops working; only owners may', async () => {
    const invited = await call<{ invite_url: string; invitation: { id: string } }>(ctx.platform, 'members/invite', {
      body: { email: 'maybe@example.com', role: 'member' },
      headers: owner.headers,
    });
    expect(invited.status).toBe(201);
    const invitationId = invited.body.data.invitation.id;
    const token = new URL(invited.body.data.invite_url).searchParams.get('invitation')!;

    const refused = await call(ctx.platform, 'members/invitation_revoke', { body: { invitation_id: invitationId }, headers: admin.headers });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('FORBIDDEN');

    const revoked = await call(ctx.platform, 'members/invitation_revoke', { body: { invitation_id: invitationId }, headers: owner.headers });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(openApiProblems('membersInvitationRevoke', revoked as ApiResponse<unknown>)).toEqual([]);
    expect(revoked.body.data).toEqual({ revoked: true, invitation_id: invitationId });
    const list = (await call<MemberList>(ctx.platform, 'members/list', { headers: owner.headers })).body.data;
    expect(list.invitations.map((invitation) => invitation.id)).not.toContain(invitationId);

    // Cancelled twice, or never there: 404.
    const again = await call(ctx.platform, 'members/invitation_revoke', { body: { invitation_id: invitationId }, headers: owner.headers });
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'NOT_FOUND', field: 'invitation_id' });
    expect((await call(ctx.platform, 'members/invitation_revoke', { body: { invitation_id: 'nope' }, headers: owner.headers })).status).toBe(400);

    // The person the link was for, signed in (a member of another workspace), cannot accept it any more.
    await addPerson(ctx.platform, 'maybe@example.com', 'member', { id: '00000000-0000-4000-8000-0000000000aa', name: 'Elsewhere' });
    const invitee = await signIn(ctx.platform, 'maybe@example.com', '00000000-0000-4000-8000-0000000000aa');
    const accepted = await call(ctx.platform, 'invitations/accept', { body: { token }, headers: invitee.headers });
    expect(accepted.status).toBe(404);
    expect(accepted.body.error?.code).toBe('NOT_FOUND');
    const after = (await call<MemberList>(ctx.platform, 'members/list', { headers: owner.headers })).body.data;
    expect(after.members.map((member) => member.email)).not.toContain('maybe@example.com');
  });

  it('invitations/accept survives a crash before the membership is written: the retry joins the person', async () => {
    const invited = await call<{ invite_url: string }>(ctx.platform, 'members/invite', {
      body: { email: 'retry@example.com', role: 'member' },
      headers: owner.headers,
    });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.data.invite_url).searchParams.get('invitation')!;
    await addPerson(ctx.platform, 'retry@example.com', 'member', { id: '00000000-0000-4000-8000-0000000000bb', name: 'Elsewhere' });
    const invitee = await signIn(ctx.platform, 'retry@example.com', '00000000-0000-4000-8000-0000000000bb');
    // The store fails the membership's write once: the request dies in the middle of accepting.
    const restore = failStoreOnce(
      ctx.platform.deps,
      (command) =>
        command.input?.TableName === ctx.platform.deps.store.table('memberships') && command.input.Item?.workspaceId === ctx.platform.demo.workspaceId,
    );
    try {
      expect((await call(ctx.platform, 'invitations/accept', { body: { token }, headers: invitee.headers })).status).toBe(500);
    } finally {
      restore();
    }
    const retried = await call(ctx.platform, 'invitations/accept', { body: { token }, headers: invitee.headers });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    const list = (await call<MemberList>(ctx.platform, 'members/list', { headers: owner.headers })).body.data;
    expect(list.members.map((member) => member.email)).toContain('retry@example.com');
    expect(list.invitations.map((invitation) => invitation.email)).not.toContain('retry@example.com');
  });
});
