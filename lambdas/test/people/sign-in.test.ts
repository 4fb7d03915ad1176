import { describe, expect, it } from 'vitest';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { addPerson, call, latestCode, mailbox, signIn, testClock } from './helpers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('signing in with a code sent by e-mail', () => {
  const clock = testClock();
  const ctx = usePlatform({ now: clock.now });

  it('mails a 6-digit code to a known address (newest first in /dev/mail.json) and the code signs in with a session cookie', async () => {
    const email = 'ada@demo.example';
    await addPerson(ctx.platform, email, 'admin');
    const started = await call(ctx.platform, 'auth/email/start', { body: { email: 'Ada@Demo.example' } });
    expect(started.status).toBe(200);
    expect(started.body.data).toEqual({ sent: true });
    expect(openApiProblems('authEmailStart', started as ApiResponse<unknown>)).toEqual([]);

    const [newest] = await mailbox(ctx.platform);
    expect(newest).toMatchObject({ to: email, subject: expect.stringMatching(/^Your sign-in code: \d{6}$/) });
    const code = await latestCode(ctx.platform, email);
    expect(newest!.text).toContain(code);
    expect(newest!.text).toContain(`${ctx.platform.url}/dashboard/?email=ada%40demo.example&code=${code}`);

    const verified = await call(ctx.platform, 'auth/email/verify', { body: { email, code } });
    expect(verified.status).toBe(200);
    expect(openApiProblems('authEmailVerify', verified as ApiResponse<unknown>)).toEqual([]);
    expect(verified.body.data).toMatchObject({
      user: { email, display_name: 'ada', id: expect.stringMatching(/^usr_/) },
      workspaces: [{ id: ctx.platform.demo.workspaceId, name: 'Demo Company', role: 'admin' }],
    });
    const setCookie = verified.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
    expect(setCookie).not.toContain('Secure'); // loopback only

    const cookie = setCookie.split(';')[0]!;
    const session = await call(ctx.platform, 'auth/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(openApiProblems('authSession', session as ApiResponse<unknown>)).toEqual([]);
    expect(session.body.data).toMatchObject({ user: { email }, workspaces: [{ role: 'admin' }], csrf_token: expect.any(String) });
  });

  it('answers the same for an unknown address and mails it nothing; no code signs it in', async () => {
    const before = (await mailbox(ctx.platform)).length;
    const started = await call(ctx.platform, 'auth/email/start', { body: { email: 'stranger@example.com' } });
    expect(started.status).toBe(200);
    expect(started.body.data).toEqual({ sent: true });
    expect((await mailbox(ctx.platform)).length).toBe(before);
    const verified = await call(ctx.platform, 'auth/email/verify', { body: { email: 'stranger@example.com', code: '123456' } });
    expect(verified.status).toBe(400);
    expect(verified.body.error).toEqual({ code: 'CODE_INVALID', field: 'code' });
  });

  it('a wrong code is CODE_INVALID; after 5 tries even the right code is CODE_EXPIRED', async () => {
    const email = 'tries@demo.example';
    await addPerson(ctx.platform, email, 'member');
    await call(ctx.platform, 'auth/email/start', { body: { email } });
    const code = await latestCode(ctx.platform, email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const answer = await call(ctx.platform, 'auth/email/verify', { body: { email, code: wrong } });
      expect(answer.status).toBe(400);
      expect(answer.body.error?.code).toBe('CODE_INVALID');
    }
    const right = await call(ctx.platform, 'auth/email/verify', { body: { email, code } });
    expect(right.status).toBe(400);
    expect(right.body.error?.code).toBe('CODE_EXPIRED');
    expect(right.headers.get('set-cookie')).toBeNull();
  });

  it('a code expires after 10 minutes and works only once', async () => {
    const email = 'once@demo.example';
    await addPerson(ctx.platform, email, 'member');
    await call(ctx.platform, 'auth/email/start', { body: { email } });
    const stale = await latestCode(ctx.platform, email);
    clock.advance(10 * MINUTE + 1000);
    expect((await call(ctx.platform, 'auth/email/verify', { body: { email, code: stale } })).body.error?.code).toBe('CODE_EXPIRED');

    await call(ctx.platform, 'auth/email/start', { body: { email } });
    const code = await latestCode(ctx.platform, email);
    expect((await call(ctx.platform, 'auth/email/verify', { body: { email, code } })).status).toBe(200);
    const reused = await call(ctx.platform, 'auth/email/verify', { body: { email, code } });
    expect(reused.status).toBe(400);
    expect(reused.body.error?.code).toBe('CODE_EXPIRED');
  });

  it('allows three codes for one address within two minutes, and refuses the sixth within ten (429, Retry-After)', async () => {
    const email = 'limits@demo.example';
    await addPerson(ctx.platform, email, 'member');
    clock.advance(20 * MINUTE); // a fresh ten-minute window
    for (let request = 1; request <= 3; request += 1) {
      expect((await call(ctx.platform, 'auth/email/start', { body: { email } })).status).toBe(200);
      clock.advance(30_000);
    }
    expect((await mailbox(ctx.platform)).filter((mail) => mail.to === email)).toHaveLength(3);
    expect((await call(ctx.platform, 'auth/email/start', { body: { email } })).status).toBe(200);
    expect((await call(ctx.platform, 'auth/email/start', { body: { email } })).status).toBe(200);
    const refused = await call(ctx.platform, 'auth/email/start', { body: { email } });
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The latest code still signs in.
    expect((await call(ctx.platform, 'auth/email/verify', { body: { email, code: await latestCode(ctx.platform, email) } })).status).toBe(200);
  });

  it('limits codes per client address too', async () => {
    clock.advance(20 * MINUTE);
    const statuses: number[] = [];
    for (let request = 0; request < 31; request += 1) {
      statuses.push((await call(ctx.platform, 'auth/email/start', { body: { email: `nobody${request}@example.com` } })).status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('sessions', () => {
  const clock = testClock();
  const ctx = usePlatform({ now: clock.now });

  it('end after 12 hours without activity', async () => {
    await addPerson(ctx.platform, 'idle@demo.example', 'member');
    const person = await signIn(ctx.platform, 'idle@demo.example');
    clock.advance(11 * HOUR);
    expect((await call(ctx.platform, 'auth/session', { headers: { cookie: person.cookie } })).status).toBe(200);
    clock.advance(11 * HOUR); // active 11 h ago: still live
    expect((await call(ctx.platform, 'auth/session', { headers: { cookie: person.cookie } })).status).toBe(200);
    clock.advance(12 * HOUR + MINUTE);
    const ended = await call(ctx.platform, 'auth/session', { headers: { cookie: person.cookie } });
    expect(ended.status).toBe(401);
    expect(ended.body.msg).toMatch(/session has ended/);
  });

  it('end 30 days after sign-in however active', async () => {
    await addPerson(ctx.platform, 'busy@demo.example', 'member');
    const person = await signIn(ctx.platform, 'busy@demo.example');
    for (let elapsed = 0; elapsed < 30 * 24 * HOUR - 11 * HOUR; elapsed += 11 * HOUR) {
      clock.advance(11 * HOUR);
      expect((await call(ctx.platform, 'auth/session', { headers: { cookie: person.cookie } })).status).toBe(200);
    }
    clock.advance(11 * HOUR);
    expect((await call(ctx.platform, 'auth/session', { headers: { cookie: person.cookie } })).status).toBe(401);
  });

  it('sign out ends this session; sign out everywhere ends them all', async () => {
    await addPerson(ctx.platform, 'leaver@demo.example', 'member');
    const laptop = await signIn(ctx.platform, 'leaver@demo.example');
    const phone = await signIn(ctx.platform, 'leaver@demo.example');
    const tablet = await signIn(ctx.platform, 'leaver@demo.example');

    const out = await call(ctx.platform, 'auth/signout', { method: 'POST', headers: laptop.headers });
    expect(out.status).toBe(200);
    expect(openApiProblems('authSignout', out as ApiResponse<unknown>)).toEqual([]);
    expect(out.headers.get('set-cookie')).toMatch(/^svc_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
    expect((await call(ctx.platform, 'auth/session', { headers: { cookie: laptop.cookie } })).status).toBe(401);
    expect((await call(ctx.platform, 'auth/session', { headers: { cookie: phone.cookie } })).status).toBe(200);

    const all = await call(ctx.platform, 'auth/signout_all', { method: 'POST', headers: phone.headers });
    expect(all.status).toBe(200);
    expect(openApiProblems('authSignoutAll', all as ApiResponse<unknown>)).toEqual([]);
    expect(all.body.data).toEqual({ signed_out: true });
    for (const device of [phone, tablet]) expect((await call(ctx.platform, 'auth/session', { headers: { cookie: device.cookie } })).status).toBe(401);
  });
});
