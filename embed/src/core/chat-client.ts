import type { ChatDecision, ChatRequest, ChatStreamEvents } from '@service/shared/widget-protocol';
import { createParser } from 'eventsource-parser';
import type { UiActionRequest, VisitorIdentity } from './event-bus';

export type { ChatRequest };

export interface ChatStreamHandlers {
  onDelta(text: string): void;
  onNavigate(href: string): void;
  onUiAction(request: UiActionRequest): void;
  onConfirm(request: ChatStreamEvents['confirm']): void;
  /** People took the conversation (or have it): the agent will not answer; their messages come on the live stream. */
  onHandoff?(state: ChatStreamEvents['handoff']): void;
}

/** A complete reply: its text, and the id the server stored it under (what a rating names; absent on an old server). */
export interface ChatReply {
  text: string;
  messageId?: string;
}

export class ChatError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

function parseJson(data: string): Record<string, unknown> {
  try {
    return record(JSON.parse(data));
  } catch {
    return {};
  }
}

/** The identity a host's `identify` command names (a token, or the older id and hash); undefined: neither, well formed. */
export function visitorIdentity(payload: unknown): VisitorIdentity | undefined {
  const given = (payload ?? {}) as Record<string, unknown>;
  if (typeof given.userToken === 'string') return { userToken: given.userToken };
  if (typeof given.userId === 'string' && typeof given.userHash === 'string') return { userId: given.userId, userHash: given.userHash };
  return undefined;
}

/** The headers a verified visitor's requests carry (never the URL: it ends up in logs and referrers). */
export const identityHeaders = (identity?: VisitorIdentity): Record<string, string> =>
  !identity ? {} : 'userToken' in identity ? { 'x-user-token': identity.userToken } : { 'x-user-id': identity.userId, 'x-user-hash': identity.userHash };

/**
 * A verified visitor's conversation from `GET {apiUrl}/v1/agents/{agentId}/history`, as the panel's messages; null
 * when the server knows none (an unverified visitor included) or cannot be reached.
 */
const HISTORY_ROLES = { user: 'user', teammate: 'teammate', event: 'event' } as const;

export async function fetchHistory(
  url: string,
  identity: VisitorIdentity,
  fetchApi: typeof fetch,
): Promise<{
  conversationId: string;
  messages: { id: string; role: 'user' | 'bot' | 'teammate' | 'event'; text: string; done: true; at: number; author?: string }[];
} | null> {
  try {
    const response = await fetchApi(url, { headers: identityHeaders(identity), credentials: 'omit' });
    const body = record(await response.json());
    if (!response.ok || typeof body.conversationId !== 'string' || !Array.isArray(body.messages)) return null;
    const messages = body.messages.map(record).filter((message) => typeof message.content === 'string');
    return {
      conversationId: body.conversationId,
      messages: messages.map((message) => ({
        id: crypto.randomUUID(),
        // The agent's request for an e-mail address (nobody was available) is the agent speaking, not a change of hands.
        role: message.event === 'email_requested' ? 'bot' : (HISTORY_ROLES[message.role as keyof typeof HISTORY_ROLES] ?? 'bot'),
        text: String(message.content),
        done: true,
        at: Date.parse(String(message.createdAt)) || Date.now(),
        ...(typeof message.author === 'string' ? { author: message.author } : {}),
      })),
    };
  } catch {
    return null;
  }
}

/** How a reply is fetched: with which fetch, how long it may stall, what ends it, for whom. */
export interface ChatConnection {
  /** The fetch the widget found when it loaded: a host page may replace `window.fetch` afterwards. */
  fetch: typeof fetch;
  idleTimeoutMs: number;
  signal: AbortSignal;
  identity?: VisitorIdentity;
}

/**
 * POST the conversation and consume the server-sent events of the reply.
 * Resolves with the full reply text (and its stored id) once the server sends `done`; rejects with a ChatError otherwise, also when
 * nothing (not even the server's keep-alive) arrives for `idleTimeoutMs`.
 */
export async function streamChat(
  url: string,
  request: ChatRequest | ChatDecision,
  handlers: ChatStreamHandlers,
  connection: ChatConnection,
): Promise<ChatReply> {
  const idle = new AbortController();
  let timer = setTimeout(() => idle.abort(), connection.idleTimeoutMs);
  const stillAlive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), connection.idleTimeoutMs);
  };
  try {
    return await consume(url, request, handlers, { ...connection, signal: AbortSignal.any([connection.signal, idle.signal]) }, stillAlive);
  } catch (error) {
    if (idle.signal.aborted && !connection.signal.aborted) throw new ChatError('REPLY_TIMEOUT', 'The reply stalled');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function consume(
  url: string,
  request: ChatRequest | ChatDecision,
  handlers: ChatStreamHandlers,
  connection: ChatConnection,
  stillAlive: () => void,
): Promise<ChatReply> {
  let response: Response;
  try {
    response = await connection.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...identityHeaders(connection.identity) },
      body: JSON.stringify(request),
      credentials: 'omit',
      signal: connection.signal,
    });
  } catch (error) {
    throw new ChatError('NETWORK_ERROR', String(error));
  }
  if (!response.ok) {
    const error = record(parseJson(await response.text().catch(() => '')).error);
    throw new ChatError(typeof error.code === 'string' ? error.code : `HTTP_${response.status}`, String(error.message ?? response.statusText));
  }

  let text = '';
  let messageId: string | undefined;
  let finished = false;
  let failure: ChatError | null = null;
  const parser = createParser({
    onEvent(event) {
      const data = parseJson(event.data);
      switch (event.event) {
        case 'delta':
          if (typeof data.text === 'string') {
            text += data.text;
            handlers.onDelta(data.text);
          }
          break;
        case 'navigate':
          if (typeof data.href === 'string') handlers.onNavigate(data.href);
          break;
        case 'uiAction':
          if (typeof data.action === 'string' && typeof data.target === 'string') {
            handlers.onUiAction({ action: data.action as UiActionRequest['action'], target: data.target });
          }
          break;
        case 'confirm':
          if (typeof data.actionId === 'string' && typeof data.summary === 'string') handlers.onConfirm({ actionId: data.actionId, summary: data.summary });
          break;
        case 'handoff':
          if (typeof data.handler === 'string') handlers.onHandoff?.(data as unknown as ChatStreamEvents['handoff']);
          break;
        case 'done':
          finished = true;
          if (typeof data.messageId === 'string') messageId = data.messageId;
          break;
        case 'error':
          failure = new ChatError(String(data.code ?? 'STREAM_ERROR'), String(data.message ?? 'The reply failed'));
          break;
      }
    },
  });
  if (response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      stillAlive();
      parser.feed(value);
    }
  } else {
    // A fetch without readable streams (a host page's polyfill, XHR underneath): the reply arrives whole.
    parser.feed(await response.text());
  }
  if (failure) throw failure;
  if (!finished) throw new ChatError('STREAM_INTERRUPTED', 'The reply ended early');
  return messageId ? { text, messageId } : { text };
}
