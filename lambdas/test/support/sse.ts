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

/** An open stream: the events parsed so far, and a way to wait for more (up to `waitMs`) or to drop the connection. */
export function openEventStream(url: string, headers: Record<string, string>, waitMs = 15_000) {
  const abort = new AbortController();
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => events.push(message) });
  const response = fetch(url, { headers, signal: abort.signal });
  const finished = response.then(async (answer) => {
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done || value === undefined) return answer;
      parser.feed(value);
    }
  });
  const waitFor = async (condition: () => boolean) => {
    const deadline = Date.now() + waitMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`stream condition not met; events: ${events.map((event) => `${event.id}:${event.event}`).join(' ')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { events, response, finished, waitFor, drop: () => abort.abort() };
}
