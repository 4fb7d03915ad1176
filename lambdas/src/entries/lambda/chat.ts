import { ROUTES } from '@service/shared';
import { storeDepsFromEnv, withSecrets } from './deps-from-env';
import { withSkillHost } from './with-skill-host';
import { matchRoute } from '../../infra/http/routes';
import { toLambdaStreamingHandler, writeResult, type StreamingHandler } from '../../infra/http/streaming';
import { resolveModel } from '../../infra/model';
import { createWidgetChatHandler } from '../../surfaces/widget/chat-handler';
import { createWidgetLiveHandler } from '../../surfaces/widget/live-handler';
import { createWidgetRatingHandler } from '../../surfaces/widget/rating-handler';
import { withTraceFlush } from './with-trace-flush';

/** A visitor's live stream ends before the function's 120 s timeout; the widget resumes it with Last-Event-ID. */
const LIVE_STREAM_MS = 100_000;

/**
 * Lambda entry of the widget chat: a Function URL with RESPONSE_STREAM, answering in server-sent events. Its secrets
 * sign the turn tokens of the agent's skills and open the built-in ones. The same URL serves the visitor's live stream
 * (`/v1/agents/{agentId}/live`, people's messages) and the visitor's ratings of answers (`…/rating`), the chat's
 * sibling paths the widget derives from its chat URL.
 */
const deps = withSkillHost(await withSecrets(storeDepsFromEnv));
const chat = withTraceFlush(createWidgetChatHandler(deps, { model: resolveModel(deps.config.model) }));
const live = createWidgetLiveHandler(deps, { maxStreamMs: LIVE_STREAM_MS });
const rating = createWidgetRatingHandler(deps);
const route: StreamingHandler = async (event, sink, context) => {
  if (matchRoute(ROUTES.widgetRating, event.rawPath)) return writeResult(sink, await rating(event));
  return (matchRoute(ROUTES.widgetLive, event.rawPath) ? live : chat)(event, sink, context);
};
export const handler = toLambdaStreamingHandler(route);
