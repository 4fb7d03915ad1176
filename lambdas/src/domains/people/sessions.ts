import type { Deps } from '../../infra/deps';
import { parseCookies } from '../../infra/http/cookies';
import { SESSION_COOKIE } from '@service/shared';
import { deleteSession, getSession, putSession, sessionHashesOfUser, touchSession } from './session-repository';
import type { StoredUser } from './user-repository';
import { randomToken } from './secrets';
import { storedHash } from '../../infra/secrets/stored-hash';

/** A signed-in person, as a request carrying their session cookie shows them. */
export interface ActiveSession {
  userId: string;
  email: string;
  displayName: string;
  csrfToken: string;
  sessionHash: string;
}

export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
/** A session's last activity is written at most this often (not on every request). */
const TOUCH_EVERY_MS = 5 * 60_000;

/** The CSRF token of a session: derived from the cookie value, so nothing more is stored and it dies with the session. */
const csrfTokenOf = (cookieValue: string): string => storedHash(`csrf\n${cookieValue}`).slice(0, 43);

const active = (stored: { userId: string; email: string; displayName: string; sessionHash: string }, cookieValue: string): ActiveSession => ({
  userId: stored.userId,
  email: stored.email,
  displayName: stored.displayName,
  sessionHash: stored.sessionHash,
  csrfToken: csrfTokenOf(cookieValue),
});

/** Starts a session for `user`: the cookie value (32 random bytes, base64url) goes to the browser, only its hash is stored. */
export async function startSession(deps: Deps, user: StoredUser): Promise<{ cookieValue: string; session: ActiveSession }> {
  const cookieValue = randomToken();
  const now = deps.now();
  const stored = {
    sessionHash: storedHash(cookieValue),
    userId: user.id,
    email: user.email,
    displayName: user.displayName,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    expiresAtEpoch: Math.floor((now.getTime() + SESSION_ABSOLUTE_MS) / 1000),
  };
  await putSession(deps, stored);
  return { cookieValue, session: active(stored, cookieValue) };
}

/**
 * The session the `Cookie` header carries, if it is live: not idle for 12 hours, not older than 30 days. An expired
 * one is deleted. Its last activity is moved forward (at most every few minutes).
 */
export async function sessionFromCookieHeader(deps: Deps, cookieHeader: string | undefined): Promise<ActiveSession | undefined> {
  const cookieValue = parseCookies(cookieHeader).get(SESSION_COOKIE);
  if (!cookieValue || cookieValue.length > 200) return undefined;
  const sessionHash = storedHash(cookieValue);
  const stored = await getSession(deps, sessionHash);
  if (!stored) return undefined;
  const nowMs = deps.now().getTime();
  const idle = nowMs - new Date(stored.lastSeenAt).getTime();
  if (idle > SESSION_IDLE_MS || nowMs - new Date(stored.createdAt).getTime() > SESSION_ABSOLUTE_MS) {
    await deleteSession(deps, sessionHash);
    return undefined;
  }
  if (idle > TOUCH_EVERY_MS) await touchSession(deps, sessionHash, deps.now().toISOString());
  return active(stored, cookieValue);
}

/** Signs this session out. */
export const endSession = (deps: Deps, session: ActiveSession): Promise<void> => deleteSession(deps, session.sessionHash);

/** Signs the person out everywhere: every session of theirs ends. */
export async function endAllSessions(deps: Deps, userId: string): Promise<number> {
  const hashes = await sessionHashesOfUser(deps, userId);
  await Promise.all(hashes.map((hash) => deleteSession(deps, hash)));
  return hashes.length;
}
