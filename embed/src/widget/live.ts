// The visitor's live stream (issue 29), a chunk of its own: loaded only once a conversation is with people, never to
// open the panel. Server-Sent Events over fetch (the visitor id goes as a header, never in the URL), reconnected with
// Last-Event-ID after a drop or the server's end of a connection, so no entry is missed or shown twice.
import { LIVE_LIMITS, type ConversationEventType, type LiveMessage, type LiveState } from '@service/shared/live-conversation';
import { createParser } from 'eventsource-parser';
import { identityHeaders } from '../core/chat-client';
import type { Locale, VisitorIdentity } from '../core/event-bus';

/** How the widget tells a change of hands, by language (`{person}` the teammate, `{name}` the agent). */
const EVENT_TEXT: Record<Locale, Record<ConversationEventType, string> & { teammate: string }> = {
  en: {
    handoff_requested: 'A person from the team will join shortly.',
    joined: '{person} joined',
    handed_back: '{person} handed the conversation back to {name}',
    closed: 'The team closed this conversation',
    reopened: '{person} reopened the conversation',
    email_requested: 'Nobody from the team is available right now.',
    teammate: 'A teammate',
  },
  tr: {
    handoff_requested: 'Ekipten biri birazdan katılacak.',
    joined: '{person} katıldı',
    handed_back: '{person} sohbeti {name} adlı asistana devretti',
    closed: 'Ekip bu sohbeti kapattı',
    reopened: '{person} sohbeti yeniden açtı',
    email_requested: 'Şu anda ekipten kimse müsait değil.',
    teammate: 'Bir ekip üyesi',
  },
};

/** A change of hands as the visitor reads it, in their language. */
export function eventText(message: LiveMessage, locale: Locale, agentName: string): string {
  const strings = EVENT_TEXT[locale];
  return strings[message.event ?? 'handoff_requested'].replace('{person}', message.author?.name ?? strings.teammate).replace('{name}', agentName);
}

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

/** The styles of people's messages, adopted with this chunk (mount.ts). */
export const liveCss = `
.scw-teammate .scw-bubble{background:var(--scw-field);color:var(--scw-fg);border:1px solid var(--scw-line);border-bottom-left-radius:4px}
.scw-author{display:block;font-size:11px;font-weight:600;color:var(--scw-muted)}
.scw-event{justify-content:center;font-size:12px;color:var(--scw-muted);text-align:center}
.scw-email{flex-wrap:wrap}
.scw-email input{flex:1;min-width:0;height:40px;padding:0 12px;border:1px solid var(--scw-line);border-radius:12px;background:var(--scw-field);color:var(--scw-fg);font:inherit;font-size:16px}
.scw-email input:focus{outline:2px solid #3b82f6;outline-offset:0;border-color:transparent}
.scw-email-error{flex-basis:100%;font-size:12px;color:#dc2626}`;

const RETRY_MIN_MS = 500;
/** How long the stream stays after the conversation left people's hands, for the entries that came with the change. */
const LIVE_TAIL_MS = 3_000;
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
          headers: {
            accept: 'text/event-stream',
            'x-visitor-id': connection.visitorId,
            'last-event-id': String(after),
            ...identityHeaders(connection.identity),
          },
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

/**
 * A transcript entry as the panel shows it: a teammate's message, a change of hands in the visitor's language, or the
 * agent's fixed request for an e-mail address when nobody was available (written in the conversation's language).
 */
export interface PeopleMessage {
  role: 'teammate' | 'event' | 'bot';
  text: string;
  author?: string;
  at?: number;
}

/**
 * The panel's side of the live stream: the conversation's stream (from the chat URL, its sibling `live`), with
 * people's entries as the panel shows them; `onMessage` gets null for an entry the panel already shows (the visitor's
 * own, the agent's), so its seq still moves on.
 */
export function followPeople(
  connection: Omit<LiveConnection, 'url'> & { chatUrl: string; conversationId: string; locale: Locale; agentName: string },
  handlers: Omit<LiveHandlers, 'onMessage'> & { onMessage(message: PeopleMessage | null, seq: number): void; onEnd(): void },
): () => void {
  const url = `${connection.chatUrl.replace(/\/chat$/, '/live')}?conversationId=${encodeURIComponent(connection.conversationId)}`;
  let tail: ReturnType<typeof setTimeout> | undefined;
  const stop = followLive(
    { ...connection, url },
    {
      ...handlers,
      // Back with the agent (or closed): the stream stops once the entries that came with the change are in; a new
      // handoff follows again.
      onState(state) {
        clearTimeout(tail);
        handlers.onState(state);
        if (state.handler !== 'people') tail = setTimeout(end, LIVE_TAIL_MS);
      },
      onMessage(entry) {
        const author = entry.author ? { author: entry.author.name } : {};
        if (entry.role === 'teammate') handlers.onMessage({ role: 'teammate', text: entry.text, at: Date.parse(entry.at) || Date.now(), ...author }, entry.seq);
        else if (entry.event === 'email_requested') handlers.onMessage({ role: 'bot', text: entry.text, at: Date.parse(entry.at) || Date.now() }, entry.seq);
        else handlers.onMessage(entry.role === 'event' ? { role: 'event', text: eventText(entry, connection.locale, connection.agentName) } : null, entry.seq);
      },
    },
  );
  function end(): void {
    stop();
    handlers.onEnd();
  }
  return () => {
    clearTimeout(tail);
    stop();
  };
}
