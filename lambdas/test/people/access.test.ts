import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { TABLES, type TableName } from '@service/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { addPerson, call, latestCode, signIn, type Person } from './helpers';

describe('one API, two credentials: sessions act with the member role, API keys as admin', () => {
  const ctx = usePlatform();
  let owner: Person;
  let admin: Person;
  let member: Person;
  beforeAll(async () => {
    await addPerson(ctx.platform, 'boss@demo.example', 'owner');
    await addPerson(ctx.platform, 'ops@demo.example', 'admin');
    await addPerson(ctx.platform, 'staff@demo.example', 'member');
    owner = await signIn(ctx.platform, 'boss@demo.example');
    admin = await signIn(ctx.platform, 'ops@demo.example');
    member = await signIn(ctx.platform, 'staff@demo.example');
  });

  it('a member reads but may not create keys (403 FORBIDDEN); an admin may; an API key still may', async () => {
    expect((await call(ctx.platform, 'keys/list', { headers: member.headers })).status).toBe(200);
    expect((await call(ctx.platform, 'agents/list', { headers: member.headers })).status).toBe(200);
    const refused = await call(ctx.platform, 'keys/create', { body: { name: 'mine' }, headers: member.headers });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('FORBIDDEN');
    expect(refused.body.msg).toMatch(/member role may not/);
    expect((await call(ctx.platform, 'members/invite', { body: { email: 'x@demo.example', role: 'member' }, headers: admin.headers })).status).toBe(403);

    const created = await call<{ secret: string }>(ctx.platform, 'keys/create', { body: { name: 'from the dashboard' }, headers: admin.headers });
    expect(created.status).toBe(201);
    expect((await call(ctx.platform, 'agents/list', { headers: { 'x-service-api-key': created.body.data.secret } })).status).toBe(200);
    expect((await ctx.api('keys/create/', { body: { name: 'by key' } })).status).toBe(201);
    // A key cannot act as a person.
    expect((await ctx.api('auth/session/')).status).toBe(403);
  });

  it('managing knowledge is the knowledge:manage permission: a member searches, lists sources and unanswered questions but may not change them; an admin may', async () => {
    for (const path of ['knowledge/source_list', 'knowledge/unanswered_list'])
      expect((await call(ctx.platform, path, { headers: member.headers })).status).toBe(200);
    expect((await call(ctx.platform, 'knowledge/search', { body: { query: 'pricing' }, headers: member.headers })).status).toBe(200);
    const refused = [
      await call(ctx.platform, 'knowledge/source_create', { body: { type: 'files', name: 'Mine' }, headers: member.headers }),
      await call(ctx.platform, 'knowledge/answer_create', { body: { question: 'Parking?', answer: 'Behind the building.' }, headers: member.headers }),
      await call(ctx.platform, 'knowledge/unanswered_dismiss', { body: { question_id: 'unq_none' }, headers: member.headers }),
    ];
    for (const answer of refused) expect([answer.status, answer.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    expect((await call(ctx.platform, 'knowledge/source_create', { body: { type: 'files', name: 'Ops' }, headers: admin.headers })).status).toBe(201);
    expect((await call(ctx.platform, 'knowledge/unanswered_dismiss', { body: { question_id: 'unq_none' }, headers: admin.headers })).status).toBe(404);
  });

  it('names the workspace in X-Workspace-Id, of which the person must be a member', async () => {
    const { 'x-workspace-id': _, ...noWorkspace } = owner.headers;
    const missing = await call(ctx.platform, 'agents/list', { headers: noWorkspace });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'X-Workspace-Id' });
    const foreign = await call(ctx.platform, 'agents/list', { headers: { ...owner.headers, 'x-workspace-id': '00000000-0000-4000-8000-000000000000' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error?.code).toBe('FORBIDDEN');
  });

  it('refuses a state change made with a session without its CSRF token, from another origin, or as a cross-site form post', async () => {
    const { 'x-csrf-token': _token, ...noToken } = owner.headers;
    const withoutToken = await call(ctx.platform, 'keys/create', { body: { name: 'csrf' }, headers: noToken });
    expect(withoutToken.status).toBe(403);
    expect(withoutToken.body.msg).toMatch(/X-CSRF-Token/);

    const wrongToken = await call(ctx.platform, 'keys/create', { body: { name: 'csrf' }, headers: { ...owner.headers, 'x-csrf-token': admin.csrf } });
    expect(wrongToken.status).toBe(403);

    const foreign = await call(ctx.platform, 'keys/create', { body: { name: 'csrf' }, headers: { ...owner.headers, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.msg).toMatch(/must come from/);

    const { origin: _origin, ...noOrigin } = owner.headers;
    expect((await call(ctx.platform, 'keys/create', { body: { name: 'csrf' }, headers: noOrigin })).status).toBe(403);

    // What a page on another site can make a browser send: a form post with the cookie, no custom header.
    const form = await call(ctx.platform, 'keys/create', {
      rawBody: 'name=stolen',
      headers: {
        cookie: owner.cookie,
        origin: 'http://localhost:9999',
        'content-type': 'application/x-www-form-urlencoded',
        'x-workspace-id': ctx.platform.demo.workspaceId,
      },
    });
    expect(form.status).toBe(403);
    expect(form.body.error?.code).toBe('FORBIDDEN');

    // Nor may another site drive the sign-in in a visitor's browser.
    const crossSiteSignIn = await call(ctx.platform, 'auth/email/verify', {
      body: { email: 'boss@demo.example', code: '123456' },
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSiteSignIn.status).toBe(403);

    expect((await call(ctx.platform, 'keys/create', { body: { name: 'fine' }, headers: owner.headers })).status).toBe(201);
    // Reading needs no token.
    expect((await call(ctx.platform, 'keys/list', { headers: { cookie: owner.cookie, 'x-workspace-id': ctx.platform.demo.workspaceId } })).status).toBe(200);
  });

  it('without any credential: 401 API_KEY_REQUIRED, saying the person may sign in', async () => {
    const none = await call(ctx.platform, 'agents/list');
    expect(none.status).toBe(401);
    expect(none.body.error?.code).toBe('API_KEY_REQUIRED');
    expect((await call(ctx.platform, 'agents/list', { headers: { cookie: 'svc_session=forged' } })).status).toBe(401);
  });
});

describe('members and invitations', () => {
  const ctx = usePlatform();

  it('the last owner can be neither demoted nor removed (409 LAST_OWNER); with a second owner both can', async () => {
    const first = await addPerson(ctx.platform, 'first@demo.example', 'owner');
    const owner = await signIn(ctx.platform, 'first@demo.example');
    const demoOwner = (
      await call<{ members: { user_id: string; email: string; role: string }[] }>(ctx.platform, 'members/list', { headers: owner.headers })
    ).body.data.members.find((m) => m.email === 'owner@demo.example')!;
    // Two owners now (the seeded demo owner and this one): remove the demo owner, then the last one stays.
    const removed = await call(ctx.platform, 'members/remove', { body: { user_id: demoOwner.user_id }, headers: owner.headers });
    expect(removed.status).toBe(200);
    expect(openApiProblems('membersRemove', removed as ApiResponse<unknown>)).toEqual([]);

    const demote = await call(ctx.platform, 'members/update', { body: { user_id: first.id, role: 'admin' }, headers: owner.headers });
    expect(demote.status).toBe(409);
    expect(demote.body.error?.code).toBe('LAST_OWNER');
    expect(openApiProblems('membersUpdate', demote as ApiResponse<unknown>)).toEqual([]);
    const remove = await call(ctx.platform, 'members/remove', { body: { user_id: first.id }, headers: owner.headers });
    expect(remove.status).toBe(409);
    expect(remove.body.error?.code).toBe('LAST_OWNER');

    const second = await addPerson(ctx.platform, 'second@demo.example', 'admin');
    const promoted = await call(ctx.platform, 'members/update', { body: { user_id: second.id, role: 'owner' }, headers: owner.headers });
    expect(promoted.status).toBe(200);
    expect(openApiProblems('membersUpdate', promoted as ApiResponse<unknown>)).toEqual([]);
    expect((await call(ctx.platform, 'members/update', { body: { user_id: first.id, role: 'member' }, headers: owner.headers })).status).toBe(200);
    // first is a member now: no longer allowed to manage members.
    expect((await call(ctx.platform, 'members/update', { body: { user_id: second.id, role: 'member' }, headers: owner.headers })).status).toBe(403);
  });

  it('an owner invites by e-mail; the invited person signs in with a code and accepts; nobody else can', async () => {
    await addPerson(ctx.platform, 'inviter@demo.example', 'owner');
    const owner = await signIn(ctx.platform, 'inviter@demo.example');
    const unknownRole = await call(ctx.platform, 'members/invite', { body: { email: 'new@example.com', role: 'wizard' }, headers: owner.headers });
    expect(unknownRole.status).toBe(404);
    const invited = await call<{ invite_url: string; invitation: { email: string; role: string } }>(ctx.platform, 'members/invite', {
      body: { email: 'New@Example.com', role: 'member' },
      headers: owner.headers,
    });
    expect(invited.status).toBe(201);
    expect(openApiProblems('membersInvite', invited as ApiResponse<unknown>)).toEqual([]);
    expect(invited.body.data.invitation).toMatchObject({ email: 'new@example.com', role: 'member' });
    const link = new URL(invited.body.data.invite_url);
    expect(link.pathname).toBe('/dashboard/');
    expect(link.searchParams.get('email')).toBe('new@example.com');
    const token = link.searchParams.get('invitation')!;
    const mails = (await (await fetch(`${ctx.platform.url}/dev/mail.json`)).json()) as { mail: { to: string; text: string }[] };
    expect(mails.mail[0]).toMatchObject({ to: 'new@example.com', text: expect.stringContaining(invited.body.data.invite_url) });

    const list = await call(ctx.platform, 'members/list', { headers: owner.headers });
    expect(openApiProblems('membersList', list as ApiResponse<unknown>)).toEqual([]);
    expect(list.body.data.invitations).toContainEqual(expect.objectContaining({ email: 'new@example.com' }));

    // Someone else, signed in, cannot take the invitation.
    await addPerson(ctx.platform, 'other@demo.example', 'member');
    const other = await signIn(ctx.platform, 'other@demo.example');
    const stolen = await call(ctx.platform, 'invitations/accept', { body: { token }, headers: other.headers });
    expect(stolen.status).toBe(403);

    // The invited address has no account yet: the invitation lets it sign in.
    const invitee = await signIn(ctx.platform, 'new@example.com');
    expect((await call<{ workspaces: unknown[] }>(ctx.platform, 'auth/session', { headers: { cookie: invitee.cookie } })).body.data.workspaces).toEqual([]);
    const accepted = await call(ctx.platform, 'invitations/accept', { body: { token }, headers: invitee.headers });
    expect(accepted.status).toBe(200);
    expect(openApiProblems('invitationsAccept', accepted as ApiResponse<unknown>)).toEqual([]);
    expect(accepted.body.data).toEqual({ workspace: { id: ctx.platform.demo.workspaceId, name: 'Demo Company', role: 'member' } });
    const members = (
      await call<{ members: { email: string; role: string }[]; invitations: unknown[] }>(ctx.platform, 'members/list', { headers: owner.headers })
    ).body.data;
    expect(members.members).toContainEqual(expect.objectContaining({ email: 'new@example.com', role: 'member' }));
    expect(members.invitations).toEqual([]);
  });
});

describe('nothing about a session or a code is logged or stored in plain text', () => {
  let written = '';
  const ctx = usePlatform();
  beforeAll(() => {
    const capture = (chunk: string | Uint8Array) => {
      written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterAll(() => vi.restoreAllMocks());

  it('the cookie value, its CSRF token and the code are in no table and no log line', async () => {
    await addPerson(ctx.platform, 'secret@demo.example', 'owner');
    await call(ctx.platform, 'auth/email/start', { body: { email: 'secret@demo.example' } });
    const code = await latestCode(ctx.platform, 'secret@demo.example');
    // A wrong try and a failing request are logged paths too.
    await call(ctx.platform, 'auth/email/verify', { body: { email: 'secret@demo.example', code: code === '999999' ? '999998' : '999999' } });
    const verified = await call(ctx.platform, 'auth/email/verify', { body: { email: 'secret@demo.example', code } });
    const sessionValue = /svc_session=([^;]+)/.exec(verified.headers.get('set-cookie') ?? '')![1]!;
    const cookie = `svc_session=${sessionValue}`;
    const { csrf_token: csrf } = (await call<{ csrf_token: string }>(ctx.platform, 'auth/session', { headers: { cookie } })).body.data;
    const headers = { cookie, 'x-csrf-token': csrf, origin: ctx.platform.url, 'x-workspace-id': ctx.platform.demo.workspaceId };
    await call(ctx.platform, 'members/invite', { body: { email: 'someone@example.com', role: 'member' }, headers });
    await call(ctx.platform, 'keys/create', { body: { name: 'x' }, headers: { ...headers, 'x-csrf-token': 'wrong' } });
    await call(ctx.platform, 'auth/signout', { method: 'POST', headers });

    // The code standing alone (not six digits inside a longer number such as a timestamp).
    const codePattern = new RegExp(`(?<!\\d)${code}(?!\\d)`);
    const found: string[] = [];
    for (const table of Object.keys(TABLES) as TableName[]) {
      // The mailbox is the recipient's inbox (local only): the mail carries its code by design.
      if (table === 'mailbox') continue;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await ctx.platform.deps.store.doc.send(new ScanCommand({ TableName: ctx.platform.deps.store.table(table), ExclusiveStartKey: start }));
        for (const item of page.Items ?? []) {
          const text = JSON.stringify(item);
          for (const [what, secret] of [
            ['cookie', sessionValue],
            ['csrf', csrf],
          ] as const)
            if (text.includes(secret)) found.push(`${what} in ${table}`);
          if (codePattern.test(text)) found.push(`code in ${table}`);
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }
    expect(found).toEqual([]);
    expect(written).not.toContain(sessionValue);
    expect(written).not.toContain(csrf);
    expect(written).not.toMatch(codePattern);
  });
});
