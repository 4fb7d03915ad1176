import { ROUTES } from '@service/shared';
import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import { userConversation } from '../../domains/conversations/conversations';
import type { Deps } from '../../infra/deps';
import { jsonResult } from '../../infra/http/event';
import { identityHeaders, requestIdentity } from './widget-agent';
import { widgetRoute } from './widget-route';

const METHODS = ['GET', 'OPTIONS'];

/**
 * GET /v1/agents/{agentId}/history: a verified visitor's latest conversation (identity in the x-user-id and x-user-hash
 * headers), so it continues on any device. Anyone else, a forged hash included, is anonymous and has no history here.
 */
export function createWidgetHistoryHandler(deps: Deps) {
  // The signed identity is what protects a history; Origin only keeps other sites' pages out.
  return widgetRoute(deps, { route: ROUTES.widgetHistory, methods: METHODS, origin: 'when-sent' }, async ({ agent, cors }, event) => {
    const identity = await requestIdentity(deps, agent, event);
    const { userId } = identity;
    const found = userId ? await userConversation(deps, agent.id, userId, CHAT_LIMITS.messages) : null;
    const body = {
      verified: userId !== undefined,
      conversationId: found?.conversationId ?? null,
      // Notes never come here (userConversation leaves them out); a teammate's entries carry their display name.
      messages: (found?.messages ?? []).map(({ role, content, createdAt, author, event }) => ({
        role,
        content,
        createdAt,
        ...(author ? { author: author.name } : {}),
        ...(event ? { event } : {}),
      })),
    };
    return jsonResult(200, body, {
      ...cors,
      ...identityHeaders(identity),
      'cache-control': 'private, no-store',
      vary: 'Origin, x-user-token, x-user-id, x-user-hash',
    });
  });
}
