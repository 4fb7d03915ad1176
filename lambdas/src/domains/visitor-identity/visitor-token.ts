import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { skillFetch } from '../skills/skill-fetch';
import type { OutboundPolicy } from '../../infra/net/outbound-guard';

/**
 * A host's signed visitor token (`data-user-token`): a JWT whose `sub` is the user id, with `exp` required and at most
 * 24 h away, and optional attributes (email, name, plan) the agent and skills may trust because they are signed.
 * HS256 is signed with the agent's identity secret; RS256 and ES256 with a key of the JWKS the company published.
 * jose checks the signature, the algorithm (only those the agent can verify: `alg: none` never) and `exp`; this
 * module checks the rest. A refusal says why, for the host's developer; the visitor stays anonymous.
 */
export const VISITOR_TOKEN_MAX_LIFETIME_S = 24 * 60 * 60;
/** Clocks differ: a token a little past its `exp` (or a little too far ahead) is still taken. */
const CLOCK_TOLERANCE_S = 30;
const MAX_TOKEN_CHARS = 8_192;

export interface VisitorAttributes {
  email?: string;
  name?: string;
  plan?: string;
}

export interface VerifiedToken {
  userId: string;
  attributes: VisitorAttributes;
}

export type TokenCheck = { ok: true; visitor: VerifiedToken } | { ok: false; reason: string };

/** What an agent verifies tokens with: its identity secret (HS256), a JWKS address (RS256, ES256), or both. */
export interface TokenKeys {
  secret?: string | undefined;
  jwksUrl?: string | undefined;
}

const Claims = z.object({
  sub: z.string().regex(/^[\x21-\x7e]{1,200}$/, 'sub must be 1 to 200 printable characters'),
  exp: z.number(),
  email: z.string().max(320).optional(),
  name: z.string().max(200).optional(),
  plan: z.string().max(100).optional(),
});

// One remote key set per JWKS address per container: jose caches the keys it fetched (10 minutes) and refetches on
// an unknown `kid` at most every 30 s. The fetch goes through the outbound guard, since the company chose the address.
const keySets = new Map<string, JWTVerifyGetKey>();
const MAX_KEY_SETS = 200;

function remoteKeySet(url: string, guard: OutboundPolicy): JWTVerifyGetKey {
  const key = `${guard.allowLocal}|${url}`;
  let set = keySets.get(key);
  if (!set) {
    if (keySets.size >= MAX_KEY_SETS) keySets.delete(keySets.keys().next().value!);
    const fetchJwks = skillFetch(guard, 64 * 1024);
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: 3_000, [customFetch]: (input, init) => fetchJwks(input, init) });
    keySets.set(key, set);
  }
  return set;
}

function refusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the token is signed with an algorithm this agent does not accept';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not match (wrong key, or the token was changed)';
  if (error instanceof errors.JWKSNoMatchingKey) return 'no key of the JWKS matches the token';
  if (error instanceof errors.JWTClaimValidationFailed) return `the claim ${error.claim} is missing or invalid`;
  // A failed fetch of the company's JWKS (down, refused by the outbound guard) is no fault of the token's.
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError))
    return 'the JWKS could not be fetched';
  return 'the token is malformed';
}

export async function verifyVisitorToken(token: string, keys: TokenKeys, guard: OutboundPolicy, now: Date): Promise<TokenCheck> {
  const algorithms = [...(keys.secret ? ['HS256'] : []), ...(keys.jwksUrl ? ['RS256', 'ES256'] : [])];
  if (algorithms.length === 0) return { ok: false, reason: 'the agent has no identity secret or JWKS to verify tokens with' };
  if (token.length > MAX_TOKEN_CHARS) return { ok: false, reason: 'the token is too long' };
  const secret = keys.secret ? new TextEncoder().encode(keys.secret) : undefined;
  const jwks = keys.jwksUrl ? remoteKeySet(keys.jwksUrl, guard) : undefined;
  const getKey: JWTVerifyGetKey = async (header, input) => (header.alg === 'HS256' ? secret! : jwks!(header, input));
  try {
    const { payload } = await jwtVerify(token, getKey, { algorithms, requiredClaims: ['sub', 'exp'], clockTolerance: CLOCK_TOLERANCE_S, currentDate: now });
    const claims = Claims.safeParse(payload);
    if (!claims.success) return { ok: false, reason: `invalid claims: ${claims.error.issues[0]?.message ?? 'malformed'}` };
    if (claims.data.exp - now.getTime() / 1000 > VISITOR_TOKEN_MAX_LIFETIME_S + CLOCK_TOLERANCE_S)
      return { ok: false, reason: 'exp is more than 24 hours away' };
    const { sub, email, name, plan } = claims.data;
    return { ok: true, visitor: { userId: sub, attributes: { ...(email ? { email } : {}), ...(name ? { name } : {}), ...(plan ? { plan } : {}) } } };
  } catch (error) {
    return { ok: false, reason: refusal(error) };
  }
}
