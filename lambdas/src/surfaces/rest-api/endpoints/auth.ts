import { ApiError, DomainError, SESSION_COOKIE } from '@service/shared';
import type { Deps } from '../../../infra/deps';
import { clearedCookie, serializeCookie } from '../../../infra/http/cookies';
import { membershipsOfUser } from '../../../domains/people/members';
import { SESSION_ABSOLUTE_MS, endAllSessions, endSession, startSession, type ActiveSession } from '../../../domains/people/sessions';
import { startEmailSignIn, verifyEmailCode } from '../../../domains/people/sign-in';
import { changeDisplayName, type StoredUser } from '../../../domains/people/users';
import type { Client, EndpointHandlers } from './types';
import { recordPersonEvent, type PersonEvent } from '../../../domains/audit/person-events';

export type SignInEndpoint = 'authEmailStart' | 'authEmailVerify' | 'authSession' | 'authProfileUpdate' | 'authSignout' | 'authSignoutAll';

/** The authentication sets both for every endpoint that needs them; their absence is a wiring fault. */
export function clientOf(client: Client | undefined): Client {
  if (!client) throw new Error('authenticate middleware must run first');
  return client;
}
export function sessionOf(session: ActiveSession | undefined): ActiveSession {
  if (!session) throw new ApiError('API_KEY_REQUIRED', 'Sign in first');
  return session;
}

const userResponse = (user: { userId: string; email: string; displayName: string }) => ({ id: user.userId, email: user.email, display_name: user.displayName });

async function workspacesOf(deps: Deps, userId: string) {
  return (await membershipsOfUser(deps, userId)).map((membership) => ({ id: membership.workspaceId, name: membership.workspaceName, role: membership.role }));
}

/** Where a person's access event came from, for the audit log. */
export const whereFrom = (client: Client): Pick<PersonEvent, 'sourceIp' | 'userAgent'> => ({ sourceIp: client.ip, userAgent: client.userAgent ?? null });

/**
 * Starts a session for the person: their profile and workspaces, and the cookie (HttpOnly, SameSite=Lax, Secure off
 * loopback). The sign-in is in each of their workspaces' audit logs before the answer goes.
 */
export async function signedIn(deps: Deps, user: StoredUser, client: Client, method: 'email_code' | 'passkey') {
  const { cookieValue, session } = await startSession(deps, user);
  await recordPersonEvent(deps, {
    user: { id: user.id, email: user.email },
    email: user.email,
    action: 'auth.signed_in',
    after: { method },
    ...whereFrom(client),
  });
  return {
    data: { user: userResponse(session), workspaces: await workspacesOf(deps, user.id) },
    msg: `Signed in as ${user.email}`,
    cookies: [serializeCookie(SESSION_COOKIE, cookieValue, { maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000, secure: client.secureCookies })],
  };
}

const signedOut = (client: Client) => ({ data: { signed_out: true as const }, cookies: [clearedCookie(SESSION_COOKIE, client.secureCookies)] });

export const signInEndpoints: EndpointHandlers<SignInEndpoint> = {
  authEmailStart: async ({ deps, body, client }) => {
    const { ip, origin } = clientOf(client);
    await startEmailSignIn(deps, { email: body.email, clientIp: ip, origin });
    return { data: { sent: true as const }, msg: 'If this address has an account or an invitation, a sign-in code is on its way' };
  },

  authEmailVerify: async ({ deps, body, client }) => {
    const user = await verifyEmailCode(deps, { email: body.email, code: body.code, clientIp: clientOf(client).ip }).catch(async (error: unknown) => {
      // A wrong or spent code is a failed sign-in of that address's person (a rate limit is not an attempt).
      if (error instanceof DomainError && (error.code === 'CODE_INVALID' || error.code === 'CODE_EXPIRED')) {
        await recordPersonEvent(deps, {
          email: body.email,
          action: 'auth.sign_in_failed',
          after: { method: 'email_code', reason: error.code },
          ...whereFrom(clientOf(client)),
        });
      }
      throw error;
    });
    return signedIn(deps, user, clientOf(client), 'email_code');
  },

  authSession: async ({ deps, session }) => {
    const active = sessionOf(session);
    return { data: { user: userResponse(active), workspaces: await workspacesOf(deps, active.userId), csrf_token: active.csrfToken } };
  },

  authProfileUpdate: async ({ deps, session, body }) => {
    const active = sessionOf(session);
    const user = await changeDisplayName(deps, active.userId, body.display_name);
    return {
      data: { user: userResponse({ userId: user.id, email: user.email, displayName: user.displayName }) },
      msg: `Your display name is now ${user.displayName}`,
    };
  },

  authSignout: async ({ deps, session, client }) => {
    await endSession(deps, sessionOf(session));
    return { ...signedOut(clientOf(client)), msg: 'Signed out' };
  },

  authSignoutAll: async ({ deps, session, client }) => {
    const ended = await endAllSessions(deps, sessionOf(session).userId);
    return { ...signedOut(clientOf(client)), msg: `Signed out everywhere (${ended} ${ended === 1 ? 'session' : 'sessions'})` };
  },
};
