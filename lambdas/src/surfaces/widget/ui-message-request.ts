import { CHAT_LIMITS } from '@service/shared/widget-protocol';

// The request `useChat` sends (the AI SDK's DefaultChatTransport): `{ id, messages: UIMessage[], ...body }`. It is read
// as the widget's chat request: the chat `id` is the conversation id, `visitorId` comes in the transport's `body`.

interface UiMessage {
  role?: unknown;
  parts?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a parsed body is a UI message request (its messages carry `parts`). */
export const isUiMessageRequest = (json: unknown): json is Record<string, unknown> & { messages: UiMessage[] } =>
  isRecord(json) && Array.isArray(json.messages) && json.messages.some((message) => isRecord(message) && Array.isArray(message.parts));

const textOf = (message: UiMessage): string =>
  (Array.isArray(message.parts) ? message.parts : [])
    .filter((part): part is { type: 'text'; text: string } => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('');

/**
 * The widget request of a UI message request: visitor and assistant text only, the latest messages within the
 * endpoint's limits (a `useChat` history grows without bound), each cut to the message length.
 */
export function fromUiMessageRequest(json: Record<string, unknown> & { messages: UiMessage[] }): Record<string, unknown> {
  const messages = json.messages
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message) => ({ role: message.role, content: textOf(message).trim().slice(0, CHAT_LIMITS.messageChars) }))
    .filter((message) => message.content !== '')
    .slice(-CHAT_LIMITS.messages);
  return { conversationId: json.id, visitorId: json.visitorId, locale: json.locale, language: json.language, context: json.context, messages };
}
