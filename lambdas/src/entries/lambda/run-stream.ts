import { ROUTES } from '@service/shared';
import { storeDepsFromEnv } from './deps-from-env';
import { matchRoute } from '../../infra/http/routes';
import { toLambdaStreamingHandler, type StreamingHandler } from '../../infra/http/streaming';
import { createConversationStreamHandler } from '../../surfaces/rest-api/conversation-stream';
import { createInboxStreamHandler } from '../../surfaces/rest-api/inbox-stream';
import { createRunStreamHandler } from '../../surfaces/rest-api/run-stream';

/** Ends a stream before the function's 900 s timeout; the client resumes with Last-Event-ID. */
const MAX_STREAM_MS = 840_000;

/**
 * Lambda entry of the REST API's streams: agents/command_stream, conversations/stream (a teammate following a
 * conversation) and conversations/inbox_stream (a teammate's whole inbox), on a Function URL with RESPONSE_STREAM
 * behind the dashboard's distribution (`/{lang}/api/v1/agents/command_stream*`, `/{lang}/api/v1/conversations/stream*`,
 * `/{lang}/api/v1/conversations/inbox_stream*`), since the HTTP API buffers whole answers. It reads runs with their
 * steps, and conversations.
 */
const deps = storeDepsFromEnv();
const runs = createRunStreamHandler(deps, { maxStreamMs: MAX_STREAM_MS });
const conversations = createConversationStreamHandler(deps, { maxStreamMs: MAX_STREAM_MS });
const inbox = createInboxStreamHandler(deps, { maxStreamMs: MAX_STREAM_MS });
const route: StreamingHandler = (event, sink, context) =>
  (matchRoute(ROUTES.conversationStream, event.rawPath) ? conversations : matchRoute(ROUTES.inboxStream, event.rawPath) ? inbox : runs)(event, sink, context);
export const handler = toLambdaStreamingHandler(route);
