import { verifyTurnToken, type VerifiedTurnToken } from './turn-token.js';

const MAX_ENTRIES = 1000;

/**
 * Verifies turn tokens, remembering the result until the token expires. One turn sends the same token
 * on several requests (tools/list, then each tools/call, often several at once), and verifying costs more than the
 * tool call itself. The verification itself is remembered, not only its result, so requests that arrive while a token
 * is being verified wait for that one verification instead of each starting their own.
 * Keyed by the exact token bytes, so a changed token is verified anew; rejects with TurnTokenError, and a token that
 * failed is forgotten at once (never remembered as bad or good).
 */
export function turnTokenVerifier(skill: string, secret: string | undefined) {
  const verifications = new Map<string, Promise<VerifiedTurnToken>>();

  function verifyAnew(token: string): Promise<VerifiedTurnToken> {
    if (verifications.size >= MAX_ENTRIES) verifications.delete(verifications.keys().next().value as string);
    const verification = verifyTurnToken(token, { secret, skill });
    verifications.set(token, verification);
    verification.catch(() => {
      if (verifications.get(token) === verification) verifications.delete(token);
    });
    return verification;
  }

  return async (token: string): Promise<VerifiedTurnToken> => {
    const remembered = verifications.get(token);
    if (remembered) {
      const claims = await remembered;
      if (claims.expiresAt > Date.now() / 1000) return claims;
      // Past its expiry: verified again, which refuses it once jose's clock tolerance is over too.
      if (verifications.get(token) === remembered) verifications.delete(token);
    }
    return verifications.get(token) ?? verifyAnew(token);
  };
}
