import type { DataOf } from '@service/shared';
import { LIVE_LIMITS } from '@service/shared/live-conversation';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import type { HttpEvent } from '../../infra/http/event';
import { SSE_HEADERS } from '../../infra/http/sse';
import { sseFrame } from '../../infra/http/sse';
import { pipeSse, withLastEventId } from '../../infra/http/sse-pipe';
import { writeResult, type ResponseSink, type StreamingHandler } from '../../infra/http/streaming';
import { followInbox, type InboxEvent } from '../../domains/conversations/inbox-watch';
import { conversationsInboxStream } from './endpoints/conversation-stream';
import { summaryResponse } from './endpoints/conversation-responses';
import { createRestPipeline } from './pipeline';

/** An inbox event as the REST API names its fields. */
const wireEvent = (event: InboxEvent) => {
  switch (event.name) {
    case 'conversation':
      return { ...event, data: summaryResponse(event.data) };
    case 'removed':
      return { ...event, data: { conversation_id: event.data.conversationId, agent_id: event.data.agentId } };
    case 'ready':
      return event;
  }
};

/**
 * conversations/inbox_stream (teammates): the REST pipeline checks the caller (API key or session, and the workspace)
 * and the query (every refusal is the JSON error envelope, before any event), then the workspace's inbox changes
 * stream as SSE (inbox-watch.ts), with the signed-in teammate's unread counts.
 */
export function createInboxStreamHandler(deps: Deps, options: { maxStreamMs?: number } = {}): StreamingHandler {
  const pipeline = createRestPipeline(deps, { conversationsInboxStream });
  return async (event: HttpEvent, sink: ResponseSink, context: Context) => {
    const request = withLastEventId(event);
    const checked = await pipeline(request, context);
    if (checked.statusCode !== 200) return writeResult(sink, checked);
    const { workspace_id, agent_id, reader_id } = (JSON.parse(checked.body ?? '{}') as { data: DataOf<'conversationsInboxStream'> }).data;
    const after = request.queryStringParameters?.last_event_id;
    sink.start(200, { ...checked.headers, ...SSE_HEADERS });
    const follower = { readerId: reader_id ?? undefined, agentId: agent_id ?? undefined };
    await pipeSse(
      sink,
      (write) =>
        followInbox(deps, workspace_id, after === undefined ? undefined : Number(after), follower, (events) =>
          write(events.map((inboxEvent) => sseFrame(wireEvent(inboxEvent))).join('')),
        ),
      {
        heartbeatMs: LIVE_LIMITS.keepAliveMs,
        maxMs: options.maxStreamMs ?? LIVE_LIMITS.maxStreamMs,
      },
    );
  };
}
