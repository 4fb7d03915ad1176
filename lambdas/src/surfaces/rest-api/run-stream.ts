import { schemas } from '@service/shared';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import { header, type HttpEvent } from '../../infra/http/event';
import { SSE_HEADERS, SSE_KEEP_ALIVE } from '../../infra/http/sse';
import { writeResult, type ResponseSink, type StreamingHandler } from '../../infra/http/streaming';
import { followRun, type RunEvent } from '../../domains/runs/steps/run-watch';
import { agentsCommandStream } from './endpoints/command-stream';
import { createRestPipeline } from './pipeline';

const HEARTBEAT_MS = 15_000;

const frame = (event: RunEvent) => `id: ${event.id}\nevent: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;

/** `Last-Event-ID` (what EventSource sends on reconnecting) joins the query, so the pipeline validates it with the rest. */
function withLastEventId(event: HttpEvent): HttpEvent {
  const lastEventId = header(event, 'last-event-id');
  if (lastEventId === undefined || event.queryStringParameters?.last_event_id !== undefined) return event;
  return { ...event, queryStringParameters: { ...event.queryStringParameters, last_event_id: lastEventId.trim() } };
}

/** Writes the run's events until its final `run` event, the client leaves, or `maxMs` passes (the client then resumes). */
function streamRun(deps: Deps, sink: ResponseSink, runId: string, after: number, maxMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let open = true;
    const heartbeat = setInterval(() => sink.write(SSE_KEEP_ALIVE), HEARTBEAT_MS);
    const limit = setTimeout(() => finish(), maxMs);
    const finish = () => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      clearTimeout(limit);
      stop();
      sink.end();
      resolve();
    };
    const stop = followRun(deps, runId, after, (events) => open && sink.write(events.map(frame).join('')), finish);
    sink.signal.addEventListener('abort', finish, { once: true });
  });
}

/**
 * agents/command_stream: the REST pipeline checks the caller, the query and the run (every refusal is the JSON error
 * envelope, before any event), then the run's events stream as SSE. The events come from the store, never from the
 * runner, so a slow reader holds up nothing but itself.
 */
export function createRunStreamHandler(deps: Deps, options: { maxStreamMs?: number } = {}): StreamingHandler {
  const pipeline = createRestPipeline(deps, { agentsCommandStream });
  return async (event: HttpEvent, sink: ResponseSink, context: Context) => {
    const request = withLastEventId(event);
    const checked = await pipeline(request, context);
    if (checked.statusCode !== 200) return writeResult(sink, checked);
    const runId = (JSON.parse(checked.body ?? '{}') as { data: { run_id: string } }).data.run_id;
    const lastEventId = request.queryStringParameters?.last_event_id;
    sink.start(200, { ...checked.headers, ...SSE_HEADERS });
    await streamRun(deps, sink, runId, lastEventId === undefined ? -1 : schemas.positionOfRunEventId(lastEventId), options.maxStreamMs ?? 60 * 60_000);
  };
}
