/**
 * Turn tokens: short-lived HS256 JWTs the platform mints for every agent turn and sends to a skill in
 * the X-Service-Turn-Token header. The skill verifies it to learn who is calling and what they may do,
 * and forwards it with serviceApi so the platform acts only for that account.
 *
 * Claims:
 *   iss    "service-platform"
 *   sub    account UUID: the token is bound to it; the platform acts for this account only
 *   aud    skill code (optional): when present, only that skill accepts the token
 *   cid    company UUID (optional)
 *   uid    user UUID (optional)
 *   roles  caller's role names, e.g. ["member"] (optional)
 *   caps   capabilities granted to the caller, e.g. ["crm.find_contact"] (optional; when present it
 *          overrides every tool's `roles`, and a capability not listed is denied)
 *   iat, exp  issued-at and expiry; exp - iat is at most 120 s
 *   jti    random id
 *
 * Key: the option `secret`, else env SKILL_TURN_TOKEN_SECRET (at least 32 characters). HMAC means whoever
 * can verify can also mint, so the platform should give each third-party skill its own key.
 */
import { randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import * as z from 'zod';
import { formatIssues } from './errors.js';
import { hmacKey, verifiedHs256Payload } from './hs256.js';
import { uuidOrUndefined } from './uuid.js';

export const TURN_TOKEN_TTL_SECONDS = 120;
export const TURN_TOKEN_HEADER = 'x-service-turn-token';
const ISSUER = 'service-platform';
const MIN_SECRET_LENGTH = 32;
/** Tolerated clock difference between the platform and a skill host. */
const CLOCK_TOLERANCE_SECONDS = 5;

export class TurnTokenError extends Error {
  constructor(
    readonly code: 'TURN_TOKEN_INVALID' | 'TURN_TOKEN_EXPIRED' | 'TURN_TOKEN_SECRET_MISSING',
    message: string,
  ) {
    super(message);
    this.name = 'TurnTokenError';
  }
}

export interface TurnTokenSubject {
  accountId: string;
  companyId?: string;
  userId?: string;
  /** Skill code the token is meant for (the `aud` claim). */
  skill?: string;
  roles?: readonly string[];
  capabilities?: readonly string[];
}

export interface TurnTokenOptions {
  /** HMAC key; defaults to env SKILL_TURN_TOKEN_SECRET. */
  secret?: string;
  /** Current time in seconds since the epoch; for tests and clock-controlled callers. */
  now?: number;
}

export interface VerifiedTurnToken {
  accountId: string;
  companyId?: string;
  userId?: string;
  roles: readonly string[];
  capabilities?: readonly string[];
  expiresAt: number;
}

const mintInput = z.object({
  accountId: z.uuid(),
  companyId: z.uuid().optional(),
  userId: z.uuid().optional(),
  skill: z.string().min(1).optional(),
  roles: z.array(z.string().min(1)).optional(),
  capabilities: z.array(z.string().min(1)).optional(),
});

const claims = z.object({
  iss: z.literal(ISSUER),
  sub: z.uuid(),
  cid: z.unknown().optional(),
  uid: z.unknown().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  roles: z.array(z.string()).optional(),
  caps: z.array(z.string()).optional(),
  iat: z.number(),
  nbf: z.number().optional(),
  exp: z.number(),
});

/** The key, from the option or the environment; refused when absent or short. */
function secretFrom(secret: string | undefined): string {
  const value = secret ?? process.env.SKILL_TURN_TOKEN_SECRET;
  if (!value) {
    throw new TurnTokenError('TURN_TOKEN_SECRET_MISSING', 'No turn-token key: set SKILL_TURN_TOKEN_SECRET');
  }
  if (value.length < MIN_SECRET_LENGTH) {
    throw new TurnTokenError('TURN_TOKEN_SECRET_MISSING', `The turn-token key must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  return value;
}

// Keys by secret: a process uses one or two secrets, and deriving a key costs as much as using it.
const signingKeys = new Map<string, Promise<CryptoKey>>();
const verifyingKeys = new Map<string, KeyObject>();

function signingKey(secret: string | undefined): Promise<CryptoKey> {
  const value = secretFrom(secret);
  let key = signingKeys.get(value);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(value), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    signingKeys.set(value, key);
  }
  return key;
}

function verifyingKey(secret: string | undefined): KeyObject {
  const value = secretFrom(secret);
  let key = verifyingKeys.get(value);
  if (!key) {
    key = hmacKey(value);
    verifyingKeys.set(value, key);
  }
  return key;
}

/** Mints a turn token for one turn of one caller (the platform calls this). */
export async function mintTurnToken(subject: TurnTokenSubject, options: TurnTokenOptions = {}): Promise<string> {
  const parsed = mintInput.safeParse(subject);
  if (!parsed.success) {
    throw new TypeError(`Cannot mint a turn token: ${formatIssues(parsed.error)}`);
  }
  const { accountId, companyId, userId, skill, roles, capabilities } = parsed.data;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({
    ...(companyId && { cid: companyId }),
    ...(userId && { uid: userId }),
    ...(roles && { roles }),
    ...(capabilities && { caps: capabilities }),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(accountId)
    .setIssuedAt(now)
    .setExpirationTime(now + TURN_TOKEN_TTL_SECONDS)
    .setJti(randomUUID());
  if (skill) jwt.setAudience(skill);
  return jwt.sign(await signingKey(options.secret));
}

/**
 * Verifies a turn token now, synchronously (the skill server's path; verifyTurnToken is its promise form).
 * `skill` is the verifying skill's code: a token minted for another skill is refused. Error messages never contain
 * the token. The times are checked as jose's jwtVerify checks them, with the clock tolerance.
 */
export function verifyTurnTokenSync(token: string, options: TurnTokenOptions & { skill?: string } = {}): VerifiedTurnToken {
  const payload = verifiedHs256Payload(token, verifyingKey(options.secret));
  if (!payload) throw new TurnTokenError('TURN_TOKEN_INVALID', 'The turn token is invalid');
  const parsed = claims.safeParse(payload);
  if (!parsed.success) throw new TurnTokenError('TURN_TOKEN_INVALID', 'The turn token carries invalid claims');
  const { sub, cid, uid, aud, roles, caps, iat, nbf, exp } = parsed.data;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (exp <= now - CLOCK_TOLERANCE_SECONDS || now - iat - CLOCK_TOLERANCE_SECONDS > TURN_TOKEN_TTL_SECONDS) {
    throw new TurnTokenError('TURN_TOKEN_EXPIRED', 'The turn token has expired');
  }
  if (iat > now + CLOCK_TOLERANCE_SECONDS || (nbf !== undefined && nbf > now + CLOCK_TOLERANCE_SECONDS) || exp - iat > TURN_TOKEN_TTL_SECONDS) {
    throw new TurnTokenError('TURN_TOKEN_INVALID', 'The turn token carries invalid claims');
  }
  if (options.skill && aud !== undefined && ![aud].flat().includes(options.skill)) {
    throw new TurnTokenError('TURN_TOKEN_INVALID', 'The turn token was issued for another skill');
  }
  return {
    accountId: sub,
    companyId: uuidOrUndefined(cid),
    userId: uuidOrUndefined(uid),
    roles: roles ?? [],
    capabilities: caps,
    expiresAt: exp,
  };
}

/** Verifies a turn token (see verifyTurnTokenSync); rejects with TurnTokenError. */
export async function verifyTurnToken(token: string, options: TurnTokenOptions & { skill?: string } = {}): Promise<VerifiedTurnToken> {
  return verifyTurnTokenSync(token, options);
}
