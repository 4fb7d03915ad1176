import { ApiError, ROUTES } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { listAgents, toAgentResponse } from '../../domains/agents/agents';
import { jsonResult } from '../../infra/http/event';
import { routeHandler } from '../../infra/http/routes';
import { admitKeyRequest, presentedApiKey, rateLimitHeaders } from './middleware/api-key';

/**
 * GET {api_url}/v1/agents (spec 1, ROUTES.agentList): the workspace's agents as a bare JSON array of the REST API's
 * agent records (`id` first: the UUID of the embed line). The key is admitted as on every REST endpoint
 * (`Authorization: Bearer`, or X-Service-Api-Key): credential-failure delays, the per-key rate limit shared with the
 * REST API, the partner plan; a refusal is the REST envelope with its documented code. No session, and no CORS
 * headers at all, preflight included: the key belongs on a server, never in a page.
 */
export function createAgentListHandler(deps: Deps) {
  return routeHandler(ROUTES.agentList, ['GET'], async (event) => {
    const secret = presentedApiKey(event);
    if (!secret) throw new ApiError('API_KEY_REQUIRED', 'Send your API key as Authorization: Bearer <API_KEY>');
    const { workspace, rate } = await admitKeyRequest(deps, secret, event.requestContext.http.sourceIp);
    const agents = await listAgents(deps, workspace.id);
    return jsonResult(200, agents.map(toAgentResponse), rateLimitHeaders(rate));
  });
}
