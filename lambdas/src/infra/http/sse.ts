/** Server-sent events: the response headers and the framing of one event. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/** One event: its `id:` and `event:` lines when it has them, then its data as JSON. */
export const sseFrame = (event: { id?: string | undefined; name?: string | undefined; data: unknown }): string =>
  `${event.id !== undefined ? `id: ${event.id}\n` : ''}${event.name ? `event: ${event.name}\n` : ''}data: ${JSON.stringify(event.data)}\n\n`;

/** A comment line: keeps proxies and idle timers from giving up on a quiet stream. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';
