// The widget chat contract, defined once. The browser widget imports from this module (it has no dependencies);
// the endpoint validates requests against these limits (lambdas/src/surfaces/widget/chat-request.ts).
import type { LiveState } from './live-conversation';

export type { LiveMessage, LiveState, LiveStreamEvents, Teammate } from './live-conversation';

/** Bounds of one chat request and of one streamed reply. */
export const CHAT_LIMITS = {
  /** Characters of one message, the visitor's or the assistant's; a longer reply is cut by the server. */
  messageChars: 4000,
  /** Messages of history one request may carry (the last one is the visitor's new message). */
  messages: 30,
  systemPrompts: 20,
  contextJsonChars: 8000,
  /** Navigations one reply may request; the widget follows at most this many too. */
  navigationsPerReply: 1,
  /** UI actions (pointer, highlight, scroll) one reply may request. */
  uiActionsPerReply: 3,
  /** The longest a reply may stream before the server ends it with an error. */
  replyMs: 60_000,
  /** The server sends an SSE comment at least this often while the model is quiet. */
  keepAliveMs: 5_000,
  /** The widget gives a reply up after this long without a byte (the default of `chat.idleTimeoutMs`). */
  idleTimeoutMs: 20_000,
  /** Skill tool calls one reply may make (reads run at once; actions wait for the visitor's confirmation). */
  toolCallsPerReply: 3,
  /** Skill tool calls one conversation may make in all. */
  toolCallsPerConversation: 20,
  /** How long an action waits for the visitor's Confirm or Decline. */
  confirmTtlMs: 10 * 60_000,
} as const;

/**
 * The visitor's live stream: GET `{chat.url without /chat}/live?conversationId=…` with `x-visitor-id` (and a verified
 * visitor's `x-user-id`/`x-user-hash`), `Last-Event-ID` to resume; Server-Sent Events as LiveStreamEvents (no notes).
 * Authorised as the chat is: the conversation must be this visitor's (its id alone is not enough).
 */
export const LIVE_PATH = 'live';

export type ChatLocale = 'en' | 'tr';

/**
 * A visitor's rating of one of the agent's answers: POST `{chat.url without /chat}/rating` with this body (the `done`
 * event's messageId). One rating an answer: rating it again replaces it (the same rating twice changes nothing).
 * Authorised as the live stream is: the conversation must be this visitor's. 204 with no body.
 */
export const RATING_PATH = 'rating';

export const RATING_LIMITS = { commentChars: 1000 } as const;

export type RatingValue = 'up' | 'down';

export interface RatingRequest {
  conversationId: string;
  visitorId: string;
  messageId: string;
  rating: RatingValue;
  /** What the visitor adds in words (optional; stored as text, shown to the company as written). */
  comment?: string;
}
export type UiActionName = 'pointer' | 'highlight' | 'scroll';

/** The body of `POST {chat.url}`: the panel's whole request to the chat endpoint. */
export interface ChatRequest {
  conversationId: string;
  visitorId: string;
  /** The widget's interface locale; not the conversation language, which the server detects from the messages. */
  locale: ChatLocale;
  /** The visitor's browser language (`navigator.language`): the conversation language's fallback for a message too short to tell. */
  language?: string;
  /** The visible transcript, oldest first; the last entry is the visitor's new message. */
  messages: { role: 'user' | 'assistant'; content: string }[];
  /** Hidden context: `system` prompts and `setContext` data. The visitor never sees it. */
  context: { system: string[]; data: Record<string, unknown> };
  page?: { url: string; title: string };
  /**
   * The visitor's "Talk to a person" (or the host's `handoff` bus event): the message goes to people, never to the agent.
   * Once a conversation is with people, every message goes to them whatever this says (the reply is a `handoff` event).
   */
  handoff?: boolean;
  /**
   * The address the visitor left in the e-mail field the widget offers once nobody was available (the live state's
   * `email: 'requested'`); the last message is the address as the visitor typed it. Teammates' replies reach it by e-mail.
   */
  email?: string;
}

/**
 * The body of `POST {chat.url}` that answers a `confirm` event: the visitor's Confirm (`confirm: true`) or Decline.
 * The action itself is the one the server stored; the reply streams back like any other.
 */
export interface ChatDecision {
  conversationId: string;
  visitorId: string;
  locale: ChatLocale;
  actionId: string;
  confirm: boolean;
}

/** The server-sent events of a reply, by event name. A reply ends with `done` or `error`. */
export interface ChatStreamEvents {
  delta: { text: string };
  navigate: { href: string };
  uiAction: { action: UiActionName; target: string };
  /** A real-world action the agent wants to perform for the visitor, waiting for Confirm or Decline (ChatDecision). */
  confirm: { actionId: string; summary: string };
  /**
   * The conversation is with people (the agent handed it off, or it was already): the message was stored for them
   * and the agent will not answer. The widget follows the live stream (LIVE_PATH) for their messages.
   */
  handoff: LiveState;
  done: { conversationId: string; messageId: string };
  error: { code: string; message: string };
}
