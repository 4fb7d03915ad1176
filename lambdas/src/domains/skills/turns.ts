import { mintTurnToken, TURN_TOKEN_TTL_SECONDS } from '@service/skill-sdk';
import type { Deps } from '../../infra/deps';
import { getSkillItem, putSkillItem } from './repository';

/** The run a turn token was minted for: the serviceApi routes act for this agent (e.g. its sending address). */
export interface Turn {
  agentId: string;
  runId: string;
  skill: string;
  expiresAtEpoch: number;
}

export interface TurnCaller {
  workspaceId: string;
  agentId: string;
  runId: string;
  roles: readonly string[];
  /** The grants for this skill; undefined when the workspace gave none (the skill's own roles decide). */
  capabilities: readonly string[] | undefined;
}

/** The `jti` of a token whose signature was already verified (or that this process just minted). */
export function turnTokenId(token: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti?: unknown };
    return typeof payload.jti === 'string' ? payload.jti : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Mints a turn token for one skill: sub (account) and cid (company) are the workspace UUID, aud the skill code.
 * `remember` stores the turn so the platform's serviceApi routes can tell which run and agent it belongs to.
 */
export async function mintTurn(
  deps: Deps,
  secret: string,
  skill: string,
  caller: TurnCaller,
  remember: boolean,
): Promise<{ token: string; expiresAtEpoch: number }> {
  const token = await mintTurnToken(
    {
      accountId: caller.workspaceId,
      companyId: caller.workspaceId,
      skill,
      roles: caller.roles,
      ...(caller.capabilities ? { capabilities: caller.capabilities } : {}),
    },
    { secret },
  );
  const expiresAtEpoch = Math.floor(Date.now() / 1000) + TURN_TOKEN_TTL_SECONDS;
  const jti = turnTokenId(token);
  if (remember && jti) {
    // One write per run and skill: the serviceApi routes learn the run and agent from it, and refuse a token no run was given.
    await putSkillItem(deps, caller.workspaceId, `turn#${jti}`, { agentId: caller.agentId, runId: caller.runId, skill, expiresAtEpoch } satisfies Turn);
  }
  return { token, expiresAtEpoch };
}

/** The live turn of a verified token; expiry is checked here, never left to TTL deletion. */
export async function findTurn(deps: Deps, workspaceId: string, jti: string): Promise<Turn | undefined> {
  // One read per serviceApi call: a token that verifies but was minted by no run (a leaked key) acts for nobody.
  const turn = await getSkillItem<Turn>(deps, workspaceId, `turn#${jti}`);
  return turn && turn.expiresAtEpoch > Date.now() / 1000 ? turn : undefined;
}
