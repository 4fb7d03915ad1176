/** One server-sent event: its name (`message` when the stream gives none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * A parser of the `text/event-stream` format for the chat reply: `event:` and `data:` fields, comment lines
 * (keep-alives) ignored, events ended by a blank line, CRLF, CR or LF line ends, text fed in any pieces.
 */
export function createSseParser(onEvent: (event: SseEvent) => void): { feed(chunk: string): void } {
  let buffer = '';
  let name = '';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: name || 'message', data: data.join('\n') });
      name = '';
      data = [];
      return;
    }
    const colon = text.indexOf(':');
    if (colon === 0) return;
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1));
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  };
  return {
    feed(chunk) {
      buffer += chunk;
      const lines = buffer.split(/\r\n|\r(?!$)|\n/);
      buffer = lines.pop() ?? '';
      lines.forEach(line);
    },
  };
}
