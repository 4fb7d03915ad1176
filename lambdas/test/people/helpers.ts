import { expect } from 'vitest';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { addMember } from '../../src/domains/people/members';
import { ensureUser } from '../../src/domains/people/users';
import { DEMO_WORKSPACE_ID } from '../../src/entries/local/seed';
import type { ApiResponse } from '../support/platform';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  sent_at: string;
}

/** A clock the test moves: the platform reads it for codes, sessions and rate-limit windows. */
export function testClock(start = Date.parse('2026-03-02T09:00:00Z')) {
  let nowMs = start;
  return { now: () => new Date(nowMs), advance: (ms: number) => void (nowMs += ms) };
}

export async function mailbox(platform: RunningPlatform): Promise<Mail[]> {
  const response = await fetch(`${platform.url}/dev/mail.json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { mail: Mail[] }).mail;
}

/** The newest sign-in code mailed to `email`. */
export async function latestCode(platform: RunningPlatform, email: string): Promise<string> {
  const mail = (await mailbox(platform)).find((m) => m.to === email && /sign-in code/.test(m.subject));
  const code = /(\d{6})/.exec(mail?.subject ?? '')?.[1];
  if (!code) throw new Error(`no sign-in mail to ${email}`);
  return code;
}

/** A person with `role` in the demo workspace (what accepting an invitation makes). */
export async function addPerson(platform: RunningPlatform, email: string, role: string, workspace = { id: DEMO_WORKSPACE_ID, name: 'Demo Company' }) {
  const user = await ensureUser(platform.deps, email);
  await addMember(platform.deps, workspace, user, role);
  return user;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** A REST call of a running platform, with whatever headers the test sends (no key unless it adds one). */
export async function call<T = Record<string, unknown>>(platform: RunningPlatform, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const url = new URL(`${platform.apiBaseUrl}/${path}/`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  const response = await fetch(url, {
    method: options.method ?? (hasBody ? 'POST' : 'GET'),
    headers: { ...(hasBody && options.rawBody === undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    ...(hasBody ? { body: options.rawBody ?? JSON.stringify(options.body) } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as ApiResponse<T>['body'] };
}

export interface Person {
  cookie: string;
  /** The raw svc_session value (a test looks for it where it must not be). */
  sessionValue: string;
  csrf: string;
  /** The headers a dashboard sends: cookie, CSRF token, its own origin, the workspace. */
  headers: Record<string, string>;
  setCookie: string;
}

/** Signs in by e-mail code, as the dashboard does: start, read the mail, verify, then auth/session for the CSRF token. */
export async function signIn(platform: RunningPlatform, email: string, workspaceId = DEMO_WORKSPACE_ID): Promise<Person> {
  expect((await call(platform, 'auth/email/start', { body: { email } })).status).toBe(200);
  const verified = await call(platform, 'auth/email/verify', { body: { email, code: await latestCode(platform, email) } });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  const setCookie = verified.headers.get('set-cookie') ?? '';
  const sessionValue = /svc_session=([^;]+)/.exec(setCookie)?.[1] ?? '';
  const cookie = `svc_session=${sessionValue}`;
  const session = await call<{ csrf_token: string }>(platform, 'auth/session', { headers: { cookie } });
  expect(session.status).toBe(200);
  const csrf = session.body.data.csrf_token;
  return { cookie, sessionValue, csrf, setCookie, headers: { cookie, 'x-csrf-token': csrf, origin: platform.url, 'x-workspace-id': workspaceId } };
}
