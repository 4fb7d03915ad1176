import { ApiError, isUuid } from '@service/shared';
import { findAgentById, type StoredAgent } from '../../domains/agents/agents';
import type { AgentWithIdentity } from '../../domains/agents/visitor-identity';
import { identifyVisitor, type VisitorIdentity } from '../../domains/visitor-identity/visitor-identity';
import type { Deps } from '../../infra/deps';
import { originAllowed } from '../../infra/http/cors';
import { header, type HttpEvent } from '../../infra/http/event';
import { matchRoute } from '../../infra/http/routes';

function agentIdFromPath(route: string, path: string): string | undefined {
  const raw = matchRoute(route, path)?.agentId;
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The agent a widget route (`/v1/agents/{agentId}/…`) names: VALIDATION_ERROR unless a UUID, AGENT_NOT_FOUND unless it exists. */
export async function widgetAgent(deps: Deps, event: HttpEvent, route: string): Promise<StoredAgent> {
  const agentId = agentIdFromPath(route, event.rawPath);
  if (!agentId || !isUuid(agentId)) throw new ApiError('VALIDATION_ERROR', 'The agent id must be a UUID', { field: 'agentId' });
  const agent = await findAgentById(deps, agentId);
  if (!agent) throw new ApiError('AGENT_NOT_FOUND', `No agent ${agentId}`, { field: 'agentId' });
  return agent;
}

/**
 * Browsers send Origin on every request a page makes across origins (and on every POST): an origin the agent does
 * not allow is refused, and so is a request without one (a script, not a page) unless the agent allows server-side use.
 */
export function assertOriginAllowed(agent: StoredAgent, origin: string | undefined): void {
  if (origin ? !originAllowed(origin, agent.allowedOrigins) : agent.widgetServerSide !== true) {
    throw new ApiError('ORIGIN_NOT_ALLOWED', origin ? `This agent is not available on ${origin}` : 'The request has no Origin', { field: 'origin' });
  }
}

/** The request headers a host's signed-in visitor is identified by (the widget sends them; never in the URL). */
export const IDENTITY_HEADERS = { userToken: 'x-user-token', userId: 'x-user-id', userHash: 'x-user-hash' } as const;
/** The response header that names a refused identity's error code (the request is answered as anonymous). */
export const IDENTITY_ERROR_HEADER = 'x-visitor-identity-error';

/** Who the visitor of a widget request is (anonymous: none, a malformed, a forged or an expired identity). */
export const requestIdentity = (deps: Deps, agent: AgentWithIdentity, event: HttpEvent): Promise<VisitorIdentity> =>
  identifyVisitor(deps, agent, {
    token: header(event, IDENTITY_HEADERS.userToken),
    userId: header(event, IDENTITY_HEADERS.userId),
    userHash: header(event, IDENTITY_HEADERS.userHash),
  });

/** The headers that tell the host's developer why an identity was refused (nothing when it was not). */
export const identityHeaders = (identity: VisitorIdentity): Record<string, string> =>
  identity.refusal ? { [IDENTITY_ERROR_HEADER]: identity.refusal.code } : {};
