import { ApiError, isUuid } from '@service/shared';
import { findAgentById, type StoredAgent } from '../../domains/agents/agents';
import type { Deps } from '../../infra/deps';
import type { HttpEvent } from '../../infra/http/event';
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
