import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { sendMail } from '../../infra/mail/send';
import { logger } from '../../infra/logger';
import { hitRateLimit } from '../access/rate-limit';
import { hasPendingInvitation } from './members';
import { countSignInTry, getSignInSecret, putSignInSecret, useSignInSecret } from './sign-in-secret-repository';
import type { StoredUser } from './user-repository';
import { randomCode, sameSecret } from './secrets';
import { storedHash } from '../../infra/secrets/stored-hash';
import { ensureUser, findUserByEmail, normalizeEmail } from './users';

export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;
export const SIGN_IN_CODE_MAX_TRIES = 5;
const TEN_MINUTES = 10 * 60_000;
/** Codes mailed per address and per client address in ten minutes (three in two minutes always pass). */
export const SIGN_IN_LIMITS = { mailsPerAddress: 5, mailsPerClient: 30, verifiesPerClient: 60 } as const;

const codeId = (email: string) => `email#${email}`;
const codeHash = (email: string, code: string) => storedHash(`${email}\n${code}`);

/** Whether this address may sign in by e-mail: a person we know, or one with a pending invitation. */
async function mayReceiveCode(deps: Deps, email: string): Promise<boolean> {
  return (await findUserByEmail(deps, email)) !== undefined || (await hasPendingInvitation(deps, email));
}

/**
 * Mails a 6-digit code (10 minutes, single use, 5 tries) to a known address; an unknown one gets nothing, and the
 * caller answers the same either way. Rate limited per address and per client address (429 with Retry-After).
 * `origin` is where the dashboard is, for the link in the mail.
 */
export async function startEmailSignIn(deps: Deps, input: { email: string; clientIp: string; origin: string }): Promise<void> {
  const email = normalizeEmail(input.email);
  await hitRateLimit(deps, `signin-mail-client#${input.clientIp.slice(0, 64)}`, SIGN_IN_LIMITS.mailsPerClient, TEN_MINUTES, 'sign-in codes from this address');
  await hitRateLimit(deps, `signin-mail#${storedHash(email)}`, SIGN_IN_LIMITS.mailsPerAddress, TEN_MINUTES, 'sign-in codes for this e-mail address');
  if (!(await mayReceiveCode(deps, email))) {
    logger.info('sign-in code not sent: no account and no invitation for the address');
    return;
  }
  const code = randomCode();
  const now = deps.now();
  await putSignInSecret(deps, { id: codeId(email), secretHash: codeHash(email, code), expiresAt: new Date(now.getTime() + SIGN_IN_CODE_TTL_MS).toISOString() });
  const link = `${input.origin}/dashboard/?email=${encodeURIComponent(email)}&code=${code}`;
  await sendMail(deps, {
    to: email,
    subject: `Your sign-in code: ${code}`,
    text: [
      `Your sign-in code is ${code}. It works once, within 10 minutes.`,
      '',
      'Or sign in with this link:',
      link,
      '',
      'If you did not ask to sign in, ignore this e-mail: nobody can sign in without the code.',
    ].join('\n'),
  });
}

/**
 * Signs in with the mailed code: the person (created now if an invitation is waiting for them). A wrong code is
 * CODE_INVALID and uses one of the 5 tries; an expired, used or exhausted code is CODE_EXPIRED (ask for a new one).
 */
export async function verifyEmailCode(deps: Deps, input: { email: string; code: string; clientIp: string }): Promise<StoredUser> {
  const email = normalizeEmail(input.email);
  await hitRateLimit(
    deps,
    `signin-verify-client#${input.clientIp.slice(0, 64)}`,
    SIGN_IN_LIMITS.verifiesPerClient,
    TEN_MINUTES,
    'sign-in attempts from this address',
  );
  const stored = await getSignInSecret(deps, codeId(email));
  if (!stored) throw new DomainError('CODE_INVALID', 'That code is not right; check the latest e-mail or ask for a new code', { field: 'code' });
  const now = deps.now();
  const expired = () => new DomainError('CODE_EXPIRED', 'That code expired or was used up; ask for a new one', { field: 'code' });
  if (stored.usedAt || stored.tries >= SIGN_IN_CODE_MAX_TRIES || stored.expiresAt <= now.toISOString()) throw expired();
  const presented = codeHash(email, input.code);
  if (!sameSecret(presented, stored.secretHash)) {
    if (!(await countSignInTry(deps, stored.id, stored.secretHash, SIGN_IN_CODE_MAX_TRIES))) throw expired();
    const left = SIGN_IN_CODE_MAX_TRIES - stored.tries - 1;
    throw new DomainError('CODE_INVALID', `That code is not right; ${left} ${left === 1 ? 'try' : 'tries'} left`, { field: 'code' });
  }
  if (!(await useSignInSecret(deps, stored.id, stored.secretHash, SIGN_IN_CODE_MAX_TRIES, now))) throw expired();
  const user = await findUserByEmail(deps, email);
  if (user) return user;
  if (await hasPendingInvitation(deps, email)) return ensureUser(deps, email);
  throw new DomainError('CODE_INVALID', 'That code is not right', { field: 'code' });
}
