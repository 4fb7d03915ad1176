import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { deletePasskeyOfUser, getPasskey, passkeysOfUser, putPasskey, recordPasskeyUse, type StoredPasskey } from './passkey-repository';
import { getSignInSecret, putSignInSecret, useSignInSecret } from './sign-in-secret-repository';
import type { StoredUser } from './user-repository';
import type { ActiveSession } from './sessions';
import { randomToken } from './secrets';
import { storedHash } from '../../infra/secrets/stored-hash';
import { getUser } from './users';

export type { StoredPasskey } from './passkey-repository';

/** The relying party: the dashboard's host name (never an IP address: WebAuthn refuses those) and its origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/** How long a passkey ceremony may take, and its challenge live. */
const CHALLENGE_TTL_MS = 5 * 60_000;
/** A challenge is used once: one try. */
const ONE_TRY = 1;

export const relyingPartyOf = (origin: string, name = 'Service dashboard'): RelyingParty => ({ id: new URL(origin).hostname, origin, name });

const registrationId = (userId: string) => `webauthn#register#${userId}`;
const signInId = (challengeId: string) => `webauthn#signin#${storedHash(challengeId)}`;

const invalid = (why: string) => new DomainError('CODE_INVALID', `The passkey was not accepted: ${why}`, { field: 'response' });
const expired = () => new DomainError('CODE_EXPIRED', 'This passkey request expired or was used; start again', { field: 'challenge_id' });

/** Runs a library verification; its complaints (wrong origin, wrong challenge, bad signature) become CODE_INVALID. */
async function checked<T>(verify: () => Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    throw invalid(error instanceof Error ? error.message : 'verification failed');
  }
}

/** Stores the challenge (its hash only) for one use within five minutes. */
async function rememberChallenge(deps: Deps, id: string, challenge: string, userId?: string): Promise<void> {
  const expiresAt = new Date(deps.now().getTime() + CHALLENGE_TTL_MS).toISOString();
  await putSignInSecret(deps, { id, secretHash: storedHash(challenge), expiresAt, ...(userId ? { userId } : {}) });
}

/** Uses the stored challenge once: the hash the browser's signed challenge must match. */
async function consumeChallenge(deps: Deps, id: string): Promise<string> {
  const stored = await getSignInSecret(deps, id);
  if (!stored || !(await useSignInSecret(deps, id, stored.secretHash, ONE_TRY, deps.now()))) throw expired();
  return stored.secretHash;
}

const matchesHash = (hash: string) => (challenge: string) => storedHash(challenge) === hash;

/** Creation options for a new passkey of the signed-in person (their existing ones excluded). */
export async function registrationOptions(deps: Deps, session: ActiveSession, rp: RelyingParty) {
  const existing = await passkeysOfUser(deps, session.userId);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: session.email,
    userDisplayName: session.displayName,
    userID: new TextEncoder().encode(session.userId),
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports as AuthenticatorTransportFuture[] })),
    // Discoverable, so that signing in needs no e-mail address first.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    timeout: CHALLENGE_TTL_MS,
  });
  await rememberChallenge(deps, registrationId(session.userId), options.challenge, session.userId);
  return options;
}

/** Verifies the browser's new credential against the person's pending challenge and keeps its public key. */
export async function registerPasskey(deps: Deps, session: ActiveSession, rp: RelyingParty, response: unknown, name?: string): Promise<StoredPasskey> {
  const challengeHash = await consumeChallenge(deps, registrationId(session.userId));
  const verified = await checked(() =>
    verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: matchesHash(challengeHash),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    }),
  );
  if (!verified.verified) throw invalid('the registration did not verify');
  const { credential } = verified.registrationInfo;
  const now = deps.now().toISOString();
  const passkey: StoredPasskey = {
    credentialId: credential.id,
    userId: session.userId,
    name: name ?? `Passkey added ${now.slice(0, 10)}`,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    createdAt: now,
  };
  if (!(await putPasskey(deps, passkey))) throw invalid('this passkey is already registered');
  return passkey;
}

/** Request options for signing in with any passkey of this site, and the id under which its challenge waits. */
export async function signInOptions(deps: Deps, rp: RelyingParty) {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred', timeout: CHALLENGE_TTL_MS });
  const challengeId = randomToken();
  await rememberChallenge(deps, signInId(challengeId), options.challenge);
  return { options, challengeId };
}

/** Verifies a passkey assertion: the person it belongs to (a cloned authenticator, whose counter went back, is refused). */
export async function signInWithPasskey(deps: Deps, rp: RelyingParty, challengeId: string, response: unknown): Promise<StoredUser> {
  const challengeHash = await consumeChallenge(deps, signInId(challengeId));
  const assertion = response as AuthenticationResponseJSON;
  const passkey = typeof assertion.id === 'string' ? await getPasskey(deps, assertion.id) : undefined;
  if (!passkey) throw invalid('this passkey is not registered here');
  const verified = await checked(() =>
    verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: matchesHash(challengeHash),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransportFuture[],
      },
      requireUserVerification: false,
    }),
  );
  if (!verified.verified) throw invalid('the signature did not verify');
  if (!(await recordPasskeyUse(deps, passkey.credentialId, verified.authenticationInfo.newCounter, deps.now().toISOString()))) {
    throw invalid('its signature counter went back (a cloned authenticator?)');
  }
  const user = await getUser(deps, passkey.userId);
  if (!user) throw invalid('its account no longer exists');
  return user;
}

export async function listPasskeys(deps: Deps, userId: string): Promise<StoredPasskey[]> {
  return (await passkeysOfUser(deps, userId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function deletePasskey(deps: Deps, userId: string, credentialId: string): Promise<void> {
  if (!(await deletePasskeyOfUser(deps, credentialId, userId))) throw new DomainError('NOT_FOUND', 'No such passkey of yours', { field: 'passkey_id' });
}
