import { TurnTokenError, verifyTurnToken, type VerifiedTurnToken } from '@service/skill-sdk';
import type { Deps } from '../../infra/deps';
import { header, type HttpEvent } from '../../infra/http/event';
import { skillHostOf } from '../../domains/skills/host';
import { findTurn, turnTokenId, type Turn } from '../../domains/skills/turns';
import { ApiError } from '@service/shared';

export const TURN_TOKEN_HEADER = 'x-service-turn-token';

function audienceOf(token: string): unknown {
  try {
    return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { aud?: unknown }).aud;
  } catch {
    return undefined;
  }
}

/**
 * A serviceApi caller is a turn token and nothing else: HS256 with the platform's key, not expired, minted for this
 * very skill (aud), and belonging to a live turn of the platform. The call then acts only in the token's account.
 */
export async function authenticateTurn(deps: Deps, event: HttpEvent, skill: string): Promise<{ caller: VerifiedTurnToken; turn: Turn }> {
  const token = header(event, TURN_TOKEN_HEADER)?.trim();
  if (!token) throw new ApiError('TURN_TOKEN_REQUIRED', 'Send the turn token the platform gave this call in X-Service-Turn-Token');
  let caller: VerifiedTurnToken;
  try {
    caller = await verifyTurnToken(token, { secret: skillHostOf(deps).turnTokenSecret, skill });
  } catch (error) {
    if (error instanceof TurnTokenError && error.code === 'TURN_TOKEN_EXPIRED') throw new ApiError('TURN_TOKEN_EXPIRED', error.message);
    throw new ApiError('TURN_TOKEN_INVALID', error instanceof TurnTokenError ? error.message : 'The turn token is invalid');
  }
  if (audienceOf(token) !== skill) throw new ApiError('TURN_TOKEN_INVALID', `The turn token was not issued for the skill ${skill}`);
  const jti = turnTokenId(token);
  const turn = jti ? await findTurn(deps, caller.accountId, jti) : undefined;
  if (!turn || turn.skill !== skill) throw new ApiError('TURN_TOKEN_INVALID', 'The turn token belongs to no live turn of this platform');
  return { caller, turn };
}

/** Administrative routes take the master key only: a turn token on them is refused outright. */
export function refuseTurnToken(event: HttpEvent): void {
  if (header(event, TURN_TOKEN_HEADER)) throw new ApiError('MASTER_KEY_REQUIRED', 'Administrative routes do not accept turn tokens; send the master key');
}
