import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { StoredAgent } from './agents';
import { setAgentFields } from './repository';

/**
 * Identity verification of widget visitors (as Intercom's): the host's server signs a signed-in user's id with the
 * agent's identity secret, `user_hash = hex(HMAC-SHA256(secret, user_id))`. Verifying needs the secret itself, so it
 * is stored as issued in the agent's item (like a skill's turn-token secret); it is never logged, never in an answer
 * but the rotation's, and never in widget-config.
 */
export type AgentWithIdentity = StoredAgent & { identitySecret?: string };

const USER_ID = /^[\x21-\x7e]{1,200}$/;
const HASH = /^[0-9a-f]{64}$/i;

/** Issues a new identity secret for the agent (the old one stops verifying at once) and returns it, once. */
export async function rotateIdentitySecret(deps: Deps, workspaceId: string, agentId: string): Promise<string> {
  const secret = `vis_${randomBytes(32).toString('base64url')}`;
  if (!(await setAgentFields(deps, workspaceId, agentId, { identitySecret: secret })))
    throw new DomainError('AGENT_NOT_FOUND', `No agent ${agentId}`, { field: 'agent_id' });
  return secret;
}

export const userHashOf = (secret: string, userId: string): string => createHmac('sha256', secret).update(userId, 'utf8').digest('hex');

/**
 * The user id a visitor proved, or undefined: a missing, malformed or forged hash (compared in constant time), or an
 * agent without a secret, leaves the visitor anonymous; never the claimed user.
 */
export function verifiedUserId(agent: AgentWithIdentity, userId: string | undefined, userHash: string | undefined): string | undefined {
  if (!agent.identitySecret || !userId || !userHash || !USER_ID.test(userId) || !HASH.test(userHash)) return undefined;
  const expected = Buffer.from(userHashOf(agent.identitySecret, userId), 'hex');
  return timingSafeEqual(expected, Buffer.from(userHash, 'hex')) ? userId : undefined;
}
