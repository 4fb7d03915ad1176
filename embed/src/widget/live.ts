// The visitor's live stream (issue 29), a chunk of its own: loaded only once a conversation is with people, never to
// open the panel. Server-Sent Events over fetch (the visitor id goes as a header, never in the URL), reconnected with
// Last-Event-ID after a drop or the server's end of a connection, so no entry is missed or shown twice.
import { LIVE_LIMITS, type LiveMessage, type LiveState } from '@service/shared/live-conversation';
import { createParser } from 'eventsource-parser';
import { identityHeaders } from '../core/chat-client';
import type { VisitorIdentity } from '../core/event-bus';

export interface LiveHandlers {
  onState(state: LiveState): void;
  onMessage(message: LiveMessage): void;
  onTyping(name: string | null): void;
}

export interface LiveConnection {
  url: string;
  visitorId: string;
  identity?: VisitorIdentity;
  fetch: typeof fetch;
  /** The last entry shown (its seq): the stream starts after it. */
  after: number;
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 15_000;

const parse = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
};
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Follows the conversation until `stop` is called; returns it. Entries come once each, in order. */
export function followLive(connection: LiveConnection, handlers: LiveHandlers): () => void {
  const abort = new AbortController();
  let after = connection.after;
  let retry = RETRY_MIN_MS;
  let typingEnds: ReturnType<typeof setTimeout> | undefined;
  const typing = (name: string | null) => {
    clearTimeout(typingEnds);
    handlers.onTyping(name);
    if (name !== null) typingEnds = setTimeout(() => handlers.onTyping(null), LIVE_LIMITS.typingMs);
  };
  const parser = createParser({
    onEvent(event) {
      const data = parse(event.data);
      if (!isRecord(data)) return;
      if (event.event === 'state' && typeof data.handler === 'string') handlers.onState(data as unknown as LiveState);
      else if (event.event === 'typing') typing(typeof data.name === 'string' ? data.name : null);
      else if (event.event === 'message' && typeof data.seq === 'number' && typeof data.text === 'string' && data.seq > after) {
        after = data.seq;
        if (data.role === 'teammate') clearTimeout(typingEnds);
        handlers.onMessage(data as unknown as LiveMessage);
      }
    },
  });

  async function connect(): Promise<void> {
    while (!abort.signal.aborted) {
      try {
        const response = await connection.fetch(connection.url, {
          headers: { accept: 'text/event-stream', 'x-visitor-id': connection.visitorId, 'last-event-id': String(after), ...identityHeaders(connection.identity) },
          credentials: 'omit',
          signal: abort.signal,
        });
        // A conversation the server does not know as this visitor's is not retried.
        if (response.status === 404 || response.status === 400) return;
        if (response.ok && response.body) {
          retry = RETRY_MIN_MS;
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) parser.feed(chunk.value);
          parser.reset();
        }
      } catch {
        if (abort.signal.aborted) return;
      }
      await new Promise((resolve) => setTimeout(resolve, retry));
      retry = Math.min(RETRY_MAX_MS, retry * 2);
    }
  }

  void connect();
  return () => {
    clearTimeout(typingEnds);
    abort.abort();
  };
}
