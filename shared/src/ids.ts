import { createHash, randomBytes, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Bytes from `seed` (SHA-256 in counter mode: the same seed always gives the same stream) or from the CSPRNG. */
const bytesOf = (length: number, seed: string | undefined, round: number): Buffer =>
  seed === undefined ? randomBytes(length) : createHash('sha256').update(`${seed}#${round}`).digest();

/**
 * Uniform base62 string (rejection sampling, so no character is favoured): random, or derived from `seed`, which an
 * idempotent create uses so that a retry after a crash names the very record the first attempt wrote.
 */
export function randomBase62(length: number, seed?: string): string {
  let out = '';
  for (let round = 0; out.length < length; round += 1) {
    for (const byte of bytesOf(length * 2, seed, round)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Written without regex flags, so the OpenAPI document can publish it as an ECMA pattern. */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/** A v4-shaped UUID: random, or derived from `seed`. */
export function newUuid(seed?: string): string {
  if (seed === undefined) return randomUUID();
  const bytes = createHash('sha256').update(seed).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
export const newRunId = (seed?: string): string => `cmd_${randomBase62(24, seed)}`;
export const newEventId = (): string => `evt_${randomBase62(24)}`;
export const newKeyId = (seed?: string): string => `key_${randomBase62(16, seed)}`;
export const newSubscriptionId = (seed?: string): string => `whs_${randomBase62(16, seed)}`;
export const newRecordId = (prefix: 'con' | 'cal' | 'tsk' | 'msg', seed?: string): string => `${prefix}_${randomBase62(16, seed)}`;

/** Any `cmd_` id within this length is looked up (unknown ones are 404 RUN_NOT_FOUND); other shapes are malformed. */
export const RUN_ID_MAX_LENGTH = 64;
