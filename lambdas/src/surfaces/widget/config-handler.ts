import { isUuid } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { findAgentById, type StoredAgent } from '../../domains/agents/agents';
import { failureResult, header, jsonResult, type HttpEvent, type HttpResult } from '../../infra/http/event';
import { corsHeaders } from './origins';
import { agentIdFromPath } from './paths';

/** The spec's widget configuration response, plus where the panel streams its conversation from. */
export function widgetConfigOf(agent: StoredAgent, chatUrl: string) {
  return {
    agent: { name: agent.name, role: agent.role, avatarUrl: agent.avatarUrl, avatarExpressions: ['idle', 'thinking', 'talking'] },
    branding: { ...agent.branding },
    widget: { ...agent.widget, locale: agent.locale },
    chat: { url: chatUrl },
  };
}

export interface WidgetConfigOptions {
  /** Public base URL of the streaming chat function (the Function URL in AWS); defaults to this API's origin. */
  chatBaseUrl?: string;
}

const METHODS = 'GET, OPTIONS';
// Browsers may reuse the answer for a minute, CDNs a little longer; the widget also caches it per session.
const CACHE = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600';

/** GET /v1/agents/{agentId}/widget-config: public, CORS limited to the agent's allowed origins. */
export function createWidgetConfigHandler(deps: Deps, options: WidgetConfigOptions = {}) {
  return async (event: HttpEvent): Promise<HttpResult> => {
    const origin = header(event, 'origin');
    const method = event.requestContext.http.method;
    const agentId = agentIdFromPath(event.rawPath);
    if (!agentId || !isUuid(agentId)) {
      return failureResult(400, 'VALIDATION_ERROR', 'The agent id must be a UUID', 'agentId', { vary: 'Origin' });
    }
    const agent = await findAgentById(deps, agentId);
    if (!agent) return failureResult(404, 'AGENT_NOT_FOUND', `No agent ${agentId}`, 'agentId', { vary: 'Origin' });
    const cors = corsHeaders(origin, agent.allowedOrigins, METHODS);
    if (method === 'OPTIONS') return { statusCode: 204, headers: cors, body: '' };
    if (method !== 'GET') return failureResult(405, 'METHOD_NOT_ALLOWED', 'Use GET', undefined, { ...cors, allow: METHODS });
    const base = options.chatBaseUrl ?? `${header(event, 'x-forwarded-proto') ?? 'http'}://${header(event, 'host') ?? 'localhost'}`;
    const chatUrl = `${base.replace(/\/$/, '')}/v1/agents/${agent.id}/chat`;
    const body = widgetConfigOf(agent, chatUrl);
    // A relative avatar is relative to the API, not to the page that embeds the widget.
    if (body.agent.avatarUrl.startsWith('/')) body.agent.avatarUrl = `${base.replace(/\/$/, '')}${body.agent.avatarUrl}`;
    return jsonResult(200, body, { ...cors, 'cache-control': CACHE });
  };
}
