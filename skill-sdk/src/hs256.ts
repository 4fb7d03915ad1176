/**
 * HS256 compact-JWS verification on node:crypto, synchronously. jose verifies through WebCrypto, an asynchronous job
 * on the thread pool that costs more than a whole tool call; this checks what jose checks for HS256 (RFC 7515):
 * three base64url segments, the HMAC over the first two in constant time, then a header naming HS256 with no
 * extension (`crit`, `b64`) and an object as payload. Claims are the caller's to check.
 */
import { isUtf8 } from 'node:buffer';
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** 32 bytes in canonical unpadded base64url: 43 characters, the last carrying no stray bits. */
const SIGNATURE = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

export const hmacKey = (secret: string): KeyObject => createSecretKey(Buffer.from(secret, 'utf8'));

function jsonObject(segment: string): Record<string, unknown> | undefined {
  const bytes = Buffer.from(segment, 'base64url');
  if (!isUtf8(bytes)) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The payload of a validly signed HS256 token, else undefined. */
export function verifiedHs256Payload(token: string, key: KeyObject): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [head, body, signature] = parts as [string, string, string];
  if (!SEGMENT.test(head) || !SEGMENT.test(body) || !SIGNATURE.test(signature)) return undefined;
  const expected = createHmac('sha256', key).update(`${head}.${body}`).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'base64url'))) return undefined;
  const header = jsonObject(head);
  if (header?.alg !== 'HS256' || 'crit' in header || 'b64' in header) return undefined;
  return jsonObject(body);
}
