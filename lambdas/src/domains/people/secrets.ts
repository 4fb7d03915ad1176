import { randomBase62 } from '@service/shared';
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { storedHash } from '../../infra/secrets/stored-hash';

/** 32 random bytes, base64url: session ids and invitation tokens. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** A 6-digit code, every value equally likely. */
export const randomCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Equal strings, compared in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(storedHash(a));
  const right = Buffer.from(storedHash(b));
  return timingSafeEqual(left, right);
}

/** An id with a prefix (`usr_`, `inv_`). */
export const newId = (prefix: string): string => `${prefix}_${randomBase62(20)}`;
