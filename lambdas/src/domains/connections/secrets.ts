import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new OAuth secret (code, access or refresh token): 32 random bytes, base64url, behind a readable prefix. */
export const newOAuthSecret = (prefix: 'mcp_code' | 'mcp_at' | 'mcp_rt' | 'mcp_reg'): string => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) equals the challenge. Verifiers are 43 to 128 unreserved characters. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
