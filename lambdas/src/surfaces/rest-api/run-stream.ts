import { schemas } from '@service/shared';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import type { HttpEvent } from '../../infra/http/event';
import { SSE_HEADERS } from '../../infra/http/sse';
import { sseFrame } from '../../infra/http/sse';
import { pipeSse, withLastEventId } from '../../infra/http/sse-pipe';
import { writeResult, type ResponseSink, type StreamingHandler } from '../../infra/http/streaming';
import { followRun, type RunEvent } from '../../domains/runs/steps/run-watch';
import { agentsCommandStream } from './endpoints/command-stream';
import { createRestPipeline } from './pipeline';

const HEARTBEAT_MS = 15_000;

/** Writes the run's events until its final `run` event, the client leaves, or `maxMs` passes (the client then resumes). */
const streamRun = (deps: Deps, sink: ResponseSink, runId: string, after: number, maxMs: number): Promise<void> =>
  pipeSse(sink, (write, finish) => followRun(deps, runId, after, (events: RunEvent[]) => write(events.map(sseFrame).join('')), finish), {
    heartbeatMs: HEARTBEAT_MS,
    maxMs,
  });

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
