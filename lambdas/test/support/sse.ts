import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** The server-sent events of a whole response body, read by eventsource-parser. */
export function sseMessages(text: string): EventSourceMessage[] {
  const messages: EventSourceMessage[] = [];
  createParser({ onEvent: (message) => messages.push(message) }).feed(text);
  return messages;
}

/** The JSON data of each event (the AI SDK's closing `[DONE]` left out). */
export const sseJson = <T>(text: string): T[] =>
  sseMessages(text)
    .filter((message) => message.data !== '[DONE]')
    .map((message) => JSON.parse(message.data) as T);
