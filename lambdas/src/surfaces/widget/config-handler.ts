import { ROUTES } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { avatarExpressionsOf, type StoredAgent } from '../../domains/agents/agents';
import { header, jsonResult, type HttpEvent } from '../../infra/http/event';
import { widgetRoute } from './widget-route';

/** The spec's widget configuration response, plus where the panel streams its conversation from. */
export function widgetConfigOf(agent: StoredAgent, chatUrl: string) {
  return {
    agent: { name: agent.name, role: agent.role, avatarUrl: agent.avatarUrl, avatarExpressions: avatarExpressionsOf(agent.avatarUrl) },
    branding: { ...agent.branding },
    widget: { ...agent.widget, locale: agent.locale },
    chat: { url: chatUrl },
  };
}

export interface WidgetConfigOptions {
  /** Public base URL of the streaming chat function (the Function URL in AWS); defaults to this API's origin. */
  chatBaseUrl?: string;
}

const METHODS = ['GET', 'OPTIONS'];
// Browsers may reuse the answer for a minute, CDNs a little longer; the widget also caches it per session.
const CACHE = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600';

/** GET /v1/agents/{agentId}/widget-config: public, CORS limited to the agent's allowed origins. */
export function createWidgetConfigHandler(deps: Deps, options: WidgetConfigOptions = {}) {
  return widgetRoute(deps, { route: ROUTES.widgetConfig, methods: METHODS, origin: 'none' }, async ({ agent, cors }, event) =>
    jsonResult(200, configBody(agent, event, options), { ...cors, 'cache-control': CACHE }),
  );
}

/** The configuration of `agent`, its URLs absolute against this API (or the configured chat base). */
function configBody(agent: StoredAgent, event: HttpEvent, options: WidgetConfigOptions) {
  const base = options.chatBaseUrl ?? `${header(event, 'x-forwarded-proto') ?? 'http'}://${header(event, 'host') ?? 'localhost'}`;
  const chatUrl = `${base.replace(/\/$/, '')}/v1/agents/${agent.id}/chat`;
  const body = widgetConfigOf(agent, chatUrl);
  // A relative avatar is relative to the API, not to the page that embeds the widget.
  if (body.agent.avatarUrl.startsWith('/')) body.agent.avatarUrl = `${base.replace(/\/$/, '')}${body.agent.avatarUrl}`;
  return body;
}
