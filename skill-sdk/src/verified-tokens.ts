import { verifyTurnToken, type VerifiedTurnToken } from './turn-token.js';

const MAX_ENTRIES = 1000;

/**
 * Verifies turn tokens, remembering the result until the token expires. One turn sends the same token
 * on several requests (tools/list, then each tools/call), and verifying costs more than the tool call itself.
 * Keyed by the exact token bytes, so a changed token is verified anew; rejects with TurnTokenError.
 */
export function turnTokenVerifier(skill: string, secret: string | undefined) {
  const verified = new Map<string, VerifiedTurnToken>();
  return async (token: string): Promise<VerifiedTurnToken> => {
    const hit = verified.get(token);
    if (hit && hit.expiresAt > Date.now() / 1000) return hit;
    verified.delete(token);
    const claims = await verifyTurnToken(token, { secret, skill });
    if (verified.size >= MAX_ENTRIES) verified.delete(verified.keys().next().value as string);
    verified.set(token, claims);
    return claims;
  };
}
