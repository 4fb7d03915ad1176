import { randomBytes, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 string (rejection sampling, so no character is favoured). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

export const newUuid = (): string => randomUUID();
export const newRunId = (): string => `cmd_${randomBase62(24)}`;
export const newEventId = (): string => `evt_${randomBase62(24)}`;
export const newKeyId = (): string => `key_${randomBase62(16)}`;
export const newSubscriptionId = (): string => `whs_${randomBase62(16)}`;
export const newRecordId = (prefix: 'con' | 'cal' | 'tsk' | 'msg'): string => `${prefix}_${randomBase62(16)}`;

export const RUN_ID_PATTERN = /^cmd_[0-9A-Za-z]{24}$/;
