import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { apiHeaders, apiUrl } from './client';

/** How long to wait before joining the stream again after it broke off. */
const RECONNECT_MS = 1000;

/**
 * Follows a Server-Sent Events endpoint of the REST API (agents/command_stream, conversations/stream) until `isLast`
 * says an event was the last or until `signal` aborts: each event once, in order. A connection that breaks off is
 * joined again with the `Last-Event-ID` of the last event received, so the stream goes on exactly where it stopped.
 * `onConnected` hears whether a connection is open (false while it is joined again, and once it ends).
 */
export async function followEventStream(
  endpoint: { path: string; query: object },
  onEvent: (event: EventSourceMessage) => void,
  signal: AbortSignal,
  isLast: (event: EventSourceMessage) => boolean = () => false,
  onConnected: (connected: boolean) => void = () => undefined,
): Promise<void> {
  let lastEventId: string | undefined;
  let finished = false;
  const parser = createParser({
    onEvent(event) {
      if (event.id) lastEventId = event.id;
      if (isLast(event)) finished = true;
      onEvent(event);
    },
  });
  while (!finished && !signal.aborted) {
    try {
      const headers = { ...apiHeaders('text/event-stream'), ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) };
      const response = await fetch(apiUrl(endpoint.path, endpoint.query), { headers, credentials: 'same-origin', signal });
      // A refusal (the run or conversation gone, the session ended) is not mended by asking again.
      if (!response.ok || !response.body) return;
      onConnected(true);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) parser.feed(read.value);
    } catch {
      // The connection broke off (or the view closed, which ends the loop): join again below.
    } finally {
      onConnected(false);
    }
    parser.reset();
    if (!finished && !signal.aborted) await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

/** Follows agents/command_stream of a run until its final `run` event. */
export const followRunStream = (runId: string, onEvent: (event: EventSourceMessage) => void, signal: AbortSignal): Promise<void> =>
  followEventStream({ path: 'agents/command_stream', query: { run_id: runId } }, onEvent, signal, (event) => event.event === 'run');
