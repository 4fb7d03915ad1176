import { ROUTES } from '@service/shared';
import type { Context } from 'aws-lambda';
import type { LanguageModel } from 'ai';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import type { StreamingHandler } from '../../infra/http/streaming';
import { createOperatorApiHandler } from '../../surfaces/operator-api/handler';
import { createApiHandler } from '../../surfaces/rest-api/handler';
import { createAgentListHandler } from '../../surfaces/rest-api/agent-list';
import { createConversationsApiHandler } from '../../surfaces/rest-api/conversations-api';
import { createAuthApiHandler } from '../../surfaces/rest-api/auth-api';
import { createRunStreamHandler } from '../../surfaces/rest-api/run-stream';
import { createConversationStreamHandler } from '../../surfaces/rest-api/conversation-stream';
import { createInboxStreamHandler } from '../../surfaces/rest-api/inbox-stream';
import { createWidgetRatingHandler } from '../../surfaces/widget/rating-handler';
import { createWidgetLiveHandler } from '../../surfaces/widget/live-handler';
import { createSkillCallbacksHandler } from '../../surfaces/skill-callbacks/handler';
import { createWidgetChatHandler } from '../../surfaces/widget/chat-handler';
import { createWidgetHistoryHandler } from '../../surfaces/widget/history-handler';
import { createWidgetConfigHandler } from '../../surfaces/widget/config-handler';
import { createDevMailHandler, DEV_MAIL_ROUTE } from './dev-mail';
import { createMcpSurfaceHandler } from '../../surfaces/mcp/handler';
import { createRunCardAssetHandler } from '../../surfaces/mcp/run-card/assets';
import { createOAuthHandler } from '../../surfaces/oauth/handler';

/**
 * The HTTP functions of the platform, by the route (shared ROUTES, as the CDK stack declares them) that reaches them.
 * The local server tries them in order, the most specific route first, as API Gateway would; the first match serves.
 */
export type LocalFunction =
  | { name: string; route: string; kind: 'buffered'; handler: (event: HttpEvent, context: Context) => Promise<HttpResult> }
  | { name: string; route: string; kind: 'streaming'; handler: StreamingHandler };

export function createLocalFunctions(deps: Deps, runtime: { model: LanguageModel }): LocalFunction[] {
  // One function in AWS serves these three routes.
  const conversationsApi = createConversationsApiHandler(deps);
  return [
    { name: 'skill-callbacks', route: ROUTES.skillCallbacks, kind: 'buffered', handler: createSkillCallbacksHandler(deps) },
    { name: 'operator-api', route: ROUTES.operatorApi, kind: 'buffered', handler: createOperatorApiHandler(deps) },
    { name: 'conversation-stream', route: ROUTES.conversationStream, kind: 'streaming', handler: createConversationStreamHandler(deps) },
    { name: 'inbox-stream', route: ROUTES.inboxStream, kind: 'streaming', handler: createInboxStreamHandler(deps) },
    { name: 'conversations-api', route: ROUTES.conversationsApi, kind: 'buffered', handler: conversationsApi },
    { name: 'visitors-api', route: ROUTES.visitorsApi, kind: 'buffered', handler: conversationsApi },
    { name: 'evals-api', route: ROUTES.evalsApi, kind: 'buffered', handler: conversationsApi },
    { name: 'auth-api', route: ROUTES.authApi, kind: 'buffered', handler: createAuthApiHandler(deps) },
    { name: 'run-stream', route: ROUTES.runStream, kind: 'streaming', handler: createRunStreamHandler(deps) },
    { name: 'api', route: ROUTES.restApi, kind: 'buffered', handler: createApiHandler(deps) },
    { name: 'agent-list', route: ROUTES.agentList, kind: 'buffered', handler: createAgentListHandler(deps) },
    { name: 'dev-mail', route: DEV_MAIL_ROUTE, kind: 'buffered', handler: createDevMailHandler(deps) },
    { name: 'widget-config', route: ROUTES.widgetConfig, kind: 'buffered', handler: createWidgetConfigHandler(deps) },
    { name: 'widget-history', route: ROUTES.widgetHistory, kind: 'buffered', handler: createWidgetHistoryHandler(deps) },
    { name: 'widget-live', route: ROUTES.widgetLive, kind: 'streaming', handler: createWidgetLiveHandler(deps) },
    { name: 'widget-rating', route: ROUTES.widgetRating, kind: 'buffered', handler: createWidgetRatingHandler(deps) },
    { name: 'widget-chat', route: ROUTES.widgetChat, kind: 'streaming', handler: createWidgetChatHandler(deps, { model: runtime.model }) },
    { name: 'mcp', route: ROUTES.mcp, kind: 'streaming', handler: createMcpSurfaceHandler(deps) },
    { name: 'mcp-ui', route: ROUTES.mcpUi, kind: 'buffered', handler: createRunCardAssetHandler() },
    { name: 'oauth', route: ROUTES.oauth, kind: 'buffered', handler: createOAuthHandler(deps) },
    { name: 'well-known', route: ROUTES.wellKnown, kind: 'buffered', handler: createOAuthHandler(deps) },
  ];
}
