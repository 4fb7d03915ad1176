import { expect } from 'vitest';
import { openEventStream, sseMessages } from './sse';

/** The page origin the demo agent's widget allows. */
export const WIDGET_ORIGIN = 'http://localhost:3000';

/** An agent's chat URL on the local platform (in AWS the widget configuration names the Chat function's URL). */
export const localChatUrl = (platformUrl: string, agentId: string) => `${platformUrl}/v1/agents/${agentId}/chat`;

/**
 * A widget visitor of one agent over real HTTP, as the widget speaks: chat turns at `chatUrl` (the reply's events by
 * name) and the visitor's live stream of the conversation (`live`, the chat URL's sibling), by the visitor id header.
 * `options`: a given conversation id, and headers of every turn (a verified visitor's identity).
 */
export function widgetVisitor(chatUrl: string, options: { conversationId?: string; headers?: Record<string, string> } = {}) {
  const conversationId = options.conversationId ?? crypto.randomUUID();
  const visitorId = crypto.randomUUID();
  const transcript: { role: 'user' | 'assistant'; content: string }[] = [];
  /** One visitor turn (`extra`: more fields of the chat request); a refused one answers its status and error. */
  async function attempt(content: string, extra: Record<string, unknown> = {}) {
    transcript.push({ role: 'user', content });
    const response = await fetch(chatUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: WIDGET_ORIGIN, ...options.headers },
      body: JSON.stringify({ conversationId, visitorId, locale: 'en', messages: transcript, ...extra }),
    });
    const body = await response.text();
    if (response.status !== 200)
      return {
        status: response.status,
        error: (JSON.parse(body) as { error: { code: string; field?: string } }).error,
        events: [],
        text: '',
        handoff: undefined,
      };
    const events = sseMessages(body).map((event) => ({ name: event.event, data: JSON.parse(event.data) as Record<string, unknown> }));
    const text = events
      .filter((event) => event.name === 'delta')
      .map((event) => event.data.text)
      .join('');
    if (text) transcript.push({ role: 'assistant', content: text });
    return { status: 200, error: undefined, events, text, handoff: events.find((event) => event.name === 'handoff')?.data };
  }
  return {
    conversationId,
    visitorId,
    attempt,
    /** One visitor turn that must be answered (200): the reply's events by name. */
    async say(content: string, extra: Record<string, unknown> = {}) {
      const turn = await attempt(content, extra);
      expect(turn.status, JSON.stringify(turn.error)).toBe(200);
      return turn;
    },
    live(headers: Record<string, string> = {}) {
      return openEventStream(`${chatUrl.replace(/\/chat$/, '/live')}?conversationId=${conversationId}`, {
        origin: WIDGET_ORIGIN,
        'x-visitor-id': visitorId,
        ...headers,
      });
    },
  };
}

export type LiveStream = ReturnType<typeof openEventStream>;

/** The `message` events of a live stream so far, with their ids. */
export const liveMessages = (stream: LiveStream) =>
  stream.events
    .filter((event) => event.event === 'message')
    .map((event) => ({
      id: event.id,
      ...(JSON.parse(event.data) as { seq: number; role: string; text: string; event: string | null; author: { name: string } | null }),
    }));
