import { LIVE_LIMITS } from '@service/shared/live-conversation';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import type { HttpEvent } from '../../infra/http/event';
import { SSE_HEADERS } from '../../infra/http/sse';
import { sseFrame } from '../../infra/http/sse';
import { pipeSse, withLastEventId } from '../../infra/http/sse-pipe';
import { writeResult, type ResponseSink, type StreamingHandler } from '../../infra/http/streaming';
import { followConversation } from '../../domains/conversations/live-watch';
import { conversationsStream } from './endpoints/conversation-stream';
import { createRestPipeline } from './pipeline';

/**
 * conversations/stream (teammates): the REST pipeline checks the caller (API key or session, and the workspace), the
 * query and the conversation (every refusal is the JSON error envelope, before any event), then the conversation's
 * entries, notes included, stream as SSE from the store (live-watch.ts).
 */
export function createConversationStreamHandler(deps: Deps, options: { maxStreamMs?: number } = {}): StreamingHandler {
  const pipeline = createRestPipeline(deps, { conversationsStream });
  return async (event: HttpEvent, sink: ResponseSink, context: Context) => {
    const request = withLastEventId(event);
    const checked = await pipeline(request, context);
    if (checked.statusCode !== 200) return writeResult(sink, checked);
    const conversationId = (JSON.parse(checked.body ?? '{}') as { data: { conversation: { id: string } } }).data.conversation.id;
    const after = Number(request.queryStringParameters?.last_event_id ?? 0);
    sink.start(200, { ...checked.headers, ...SSE_HEADERS });
    await pipeSse(sink, (write) => followConversation(deps, conversationId, after, { notes: true }, (events) => write(events.map(sseFrame).join(''))), {
      heartbeatMs: LIVE_LIMITS.keepAliveMs,
      maxMs: options.maxStreamMs ?? LIVE_LIMITS.maxStreamMs,
    });
  };
}
