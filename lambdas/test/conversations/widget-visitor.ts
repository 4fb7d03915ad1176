import { expect } from 'vitest';
import { openEventStream, sseMessages } from '../support/sse';

/** The origin the seeded agent allows: the widget's page in these tests. */
export const ORIGIN = 'http://localhost:3000';

/**
 * A visitor of an agent's widget, over real HTTP: their turns (the chat's events by name, the agent's text, the
 * `handoff` event) and their live stream. Each turn carries the whole transcript, as the widget sends it.
 */
export function widgetVisitor(platformUrl: string, agentId: string) {
  const url = (route: string) => `${platformUrl}/v1/agents/${agentId}/${route}`;
  const conversationId = crypto.randomUUID();
  const visitorId = crypto.randomUUID();
  const transcript: { role: 'user' | 'assistant'; content: string }[] = [];
  /** One visitor turn (`extra`: more fields of the chat request); a refused one answers its status and error. */
  async function attempt(content: string, extra: Record<string, unknown> = {}) {
    transcript.push({ role: 'user', content });
    const response = await fetch(url('chat'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ conversationId, visitorId, locale: 'en', messages: transcript, ...extra }),
    });
    const body = await response.text();
    if (response.status !== 200) return { status: response.status, error: (JSON.parse(body) as { error: { code: string; field?: string } }).error, events: [], text: '', handoff: undefined };
    const events = sseMessages(body).map((event) => ({ name: event.event, data: JSON.parse(event.data) as Record<string, unknown> }));
    const text = events.filter((event) => event.name === 'delta').map((event) => event.data.text).join('');
    if (text) transcript.push({ role: 'assistant', content: text });
    return { status: 200, error: undefined, events, text, handoff: events.find((event) => event.name === 'handoff')?.data };
  }
  return {
    conversationId,
    visitorId,
    attempt,
    /** One visitor turn that must be answered (200). */
    async say(content: string, extra: Record<string, unknown> = {}) {
      const turn = await attempt(content, extra);
      expect(turn.status, JSON.stringify(turn.error)).toBe(200);
      return turn;
    },
    live(headers: Record<string, string> = {}) {
      return openEventStream(`${url('live')}?conversationId=${conversationId}`, { origin: ORIGIN, 'x-visitor-id': visitorId, ...headers });
    },
  };
}
