import { header, type HttpEvent } from './event';
import { SSE_KEEP_ALIVE } from './sse';
import type { ResponseSink } from './streaming';

/**
 * Writes a followed source's events to an open SSE response until the source says it is done, the client leaves, or
 * `maxMs` passes (the client then resumes with Last-Event-ID), with a keep-alive comment every `heartbeatMs`.
 * `follow` starts following with a writer and a way to finish, and returns the way to stop following.
 */
export function pipeSse(
  sink: ResponseSink,
  follow: (write: (text: string) => void, finish: () => void) => () => void,
  options: { heartbeatMs: number; maxMs: number },
): Promise<void> {
  return new Promise<void>((resolve) => {
    let open = true;
    const following: { stop?: () => void } = {};
    const heartbeat = setInterval(() => sink.write(SSE_KEEP_ALIVE), options.heartbeatMs);
    const limit = setTimeout(() => finish(), options.maxMs);
    const finish = () => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      clearTimeout(limit);
      // Finishing inside `follow` itself (a source already done) stops it once `follow` returned, below.
      following.stop?.();
      sink.end();
      resolve();
    };
    following.stop = follow((text) => open && sink.write(text), finish);
    if (!open) following.stop();
    sink.signal.addEventListener('abort', finish, { once: true });
  });
}

/** `Last-Event-ID` (what EventSource sends on reconnecting) joins the query, so the pipeline validates it with the rest. */
export function withLastEventId(event: HttpEvent): HttpEvent {
  const lastEventId = header(event, 'last-event-id');
  if (lastEventId === undefined || event.queryStringParameters?.last_event_id !== undefined) return event;
  return { ...event, queryStringParameters: { ...event.queryStringParameters, last_event_id: lastEventId.trim() } };
}
