import { ApiError, isUuid, ROUTES } from '@service/shared';
import { LIVE_LIMITS, liveSeqOf } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { header } from '../../infra/http/event';
import { SSE_HEADERS, sseFrame } from '../../infra/http/sse';
import { pipeSse } from '../../infra/http/sse-pipe';
import type { StreamingHandler } from '../../infra/http/streaming';
import { isVisitorsConversation, readConversation } from '../../domains/conversations/conversation-state';
import { followConversation } from '../../domains/conversations/live-watch';
import { requestIdentity } from './widget-agent';
import { widgetStream } from './widget-route';

const METHODS = ['GET', 'OPTIONS'];
/** The visitor's own id travels in a header, never in the URL (it is what makes the conversation theirs). */
export const VISITOR_HEADER = 'x-visitor-id';

/**
 * GET /v1/agents/{agentId}/live?conversationId=…: a widget visitor's live stream of their conversation (people's
 * messages, changes of hands, a teammate typing), resumable with Last-Event-ID. Authorised as the chat is: the
 * conversation must be this agent's and this visitor's (x-visitor-id), or a verified visitor's (x-user-id and
 * x-user-hash); an id alone gets 404, as does anyone else's. Internal notes never come here.
 */
export function createWidgetLiveHandler(deps: Deps, options: { maxStreamMs?: number } = {}): StreamingHandler {
  // The visitor's id is what protects the stream; Origin only keeps other sites' pages out.
  return widgetStream(deps, { route: ROUTES.widgetLive, methods: METHODS, origin: 'when-sent' }, async ({ agent, cors }, event, sink) => {
    const conversationId = event.queryStringParameters?.conversationId ?? '';
    const visitorId = header(event, VISITOR_HEADER);
    if (!isUuid(conversationId)) throw new ApiError('VALIDATION_ERROR', 'conversationId must be a UUID', { field: 'conversationId' });
    if (!visitorId || !isUuid(visitorId)) throw new ApiError('VALIDATION_ERROR', `${VISITOR_HEADER} must be the visitor's UUID`, { field: VISITOR_HEADER });
    const meta = await readConversation(deps, agent.workspaceId, conversationId);
    const { userId } = await requestIdentity(deps, agent, event);
    if (!isVisitorsConversation(meta, { agentId: agent.id, visitorId, userId }))
      throw new ApiError('CONVERSATION_NOT_FOUND', `No conversation ${conversationId} of this visitor`, { field: 'conversationId' });
    const after = liveSeqOf(header(event, 'last-event-id')) ?? 0;
    return async () => {
      sink.start(200, { ...cors, ...SSE_HEADERS });
      await pipeSse(sink, (write) => followConversation(deps, conversationId, after, { notes: false }, (events) => write(events.map(sseFrame).join(''))), {
        heartbeatMs: LIVE_LIMITS.keepAliveMs,
        maxMs: options.maxStreamMs ?? LIVE_LIMITS.maxStreamMs,
      });
    };
  });
}
