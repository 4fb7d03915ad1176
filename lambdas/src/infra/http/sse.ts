/** Server-sent events: the response headers and the framing of one event (`event:` line optional, then `data:` JSON). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

export const sseEvent = (data: unknown, name?: string): string => `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** A comment line: keeps proxies and idle timers from giving up on a quiet stream. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';
