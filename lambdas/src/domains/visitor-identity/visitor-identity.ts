import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { getWorkspace } from '../access/workspaces';
import { verifiedUserId, type AgentWithIdentity } from '../agents/visitor-identity';
import { verifyVisitorToken, type VisitorAttributes } from './visitor-token';

/**
 * Who a widget visitor is, from what the host's page presented: a signed token (`x-user-token`, preferred: it
 * expires and may carry attributes) or the older user id and HMAC hash (`x-user-id`, `x-user-hash`: it never expires,
 * so it is taken only where the workspace still allows it; new workspaces do not). A refused identity leaves the
 * visitor anonymous and says why (`refusal`), so the host's developer can see it; the conversation goes on.
 */
export interface PresentedIdentity {
  token?: string | undefined;
  userId?: string | undefined;
  userHash?: string | undefined;
}

export interface VisitorIdentity {
  userId?: string;
  /** `token`: a valid signed token (what `requires_verified_visitor` grants ask for); `hash`: the older user hash. */
  proof?: 'token' | 'hash';
  /** Signed attributes of a token, trusted as the host's statement about its user. */
  attributes?: VisitorAttributes;
  refusal?: { code: 'VISITOR_TOKEN_INVALID'; message: string };
}

const refused = (message: string): VisitorIdentity => ({ refusal: { code: 'VISITOR_TOKEN_INVALID', message } });

/**
 * Absent on workspaces older than tokens: they keep the user hash they were built on. Read fresh (by key, and only
 * when a hash is presented), so turning hashes off takes effect at once.
 */
export async function userHashAllowed(deps: Deps, workspaceId: string): Promise<boolean> {
  return (await getWorkspace(deps, workspaceId))?.userHashAllowed !== false;
}

export async function identifyVisitor(deps: Deps, agent: AgentWithIdentity, presented: PresentedIdentity): Promise<VisitorIdentity> {
  if (presented.token) {
    const check = await verifyVisitorToken(
      presented.token,
      { secret: agent.identitySecret, jwksUrl: agent.identityJwksUrl ?? undefined },
      { allowLocal: deps.config.webhookAllowLocal },
      deps.now(),
    );
    if (!check.ok) {
      logger.warn('visitor token refused', { agentId: agent.id, workspaceId: agent.workspaceId, reason: check.reason });
      return refused(`The visitor token was refused: ${check.reason}; the visitor is anonymous`);
    }
    return { userId: check.visitor.userId, proof: 'token', attributes: check.visitor.attributes };
  }
  if (!presented.userId && !presented.userHash) return {};
  if (!(await userHashAllowed(deps, agent.workspaceId)))
    return refused('This workspace takes signed visitor tokens (data-user-token), not user hashes; the visitor is anonymous');
  const userId = verifiedUserId(agent, presented.userId, presented.userHash);
  return userId ? { userId, proof: 'hash' } : {};
}
