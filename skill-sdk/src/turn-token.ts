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
import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import * as z from 'zod';
import { formatIssues } from './errors.js';
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
  sub: z.uuid(),
  cid: z.unknown().optional(),
  uid: z.unknown().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  roles: z.array(z.string()).optional(),
  caps: z.array(z.string()).optional(),
  iat: z.number(),
  exp: z.number(),
});

// Imported HMAC keys by secret: importing costs as much as verifying, and a process uses one or two secrets.
const importedKeys = new Map<string, Promise<CryptoKey>>();

function keyFrom(secret: string | undefined): Promise<CryptoKey> {
  const value = secret ?? process.env.SKILL_TURN_TOKEN_SECRET;
  if (!value) {
    throw new TurnTokenError('TURN_TOKEN_SECRET_MISSING', 'No turn-token key: set SKILL_TURN_TOKEN_SECRET');
  }
  if (value.length < MIN_SECRET_LENGTH) {
    throw new TurnTokenError('TURN_TOKEN_SECRET_MISSING', `The turn-token key must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  let key = importedKeys.get(value);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(value), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    importedKeys.set(value, key);
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
  return jwt.sign(await keyFrom(options.secret));
}

/**
 * Verifies a turn token. `skill` is the verifying skill's code: a token minted for another skill is refused.
 * Error messages never contain the token.
 */
export async function verifyTurnToken(token: string, options: TurnTokenOptions & { skill?: string } = {}): Promise<VerifiedTurnToken> {
  const key = await keyFrom(options.secret);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      maxTokenAge: TURN_TOKEN_TTL_SECONDS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      ...(options.now !== undefined && { currentDate: new Date(options.now * 1000) }),
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new TurnTokenError('TURN_TOKEN_EXPIRED', 'The turn token has expired');
    throw new TurnTokenError('TURN_TOKEN_INVALID', 'The turn token is invalid');
  }
  const parsed = claims.safeParse(payload);
  if (!parsed.success || parsed.data.exp - parsed.data.iat > TURN_TOKEN_TTL_SECONDS) {
    throw new TurnTokenError('TURN_TOKEN_INVALID', 'The turn token carries invalid claims');
  }
  const audience = payload.aud;
  if (options.skill && audience !== undefined && ![audience].flat().includes(options.skill)) {
    throw new TurnTokenError('TURN_TOKEN_INVALID', 'The turn token was issued for another skill');
  }
  const { sub, cid, uid, roles, caps, exp } = parsed.data;
  return {
    accountId: sub,
    companyId: uuidOrUndefined(cid),
    userId: uuidOrUndefined(uid),
    roles: roles ?? [],
    capabilities: caps,
    expiresAt: exp,
  };
}
