import type { HttpEvent } from './event';
import { header } from './event';
import type { ResponseSink } from './streaming';

/** The request's own origin (scheme + Host), as the caller addressed it: API Gateway and Function URLs set x-forwarded-proto. */
export const requestOrigin = (event: HttpEvent): string =>
  `${header(event, 'x-forwarded-proto') ?? 'https'}://${header(event, 'host') ?? event.requestContext.domainName}`;

/** The event as a web-standard Request (for handlers written against fetch, such as the MCP SDK's), aborted with the sink. */
export function toWebRequest(event: HttpEvent, signal?: AbortSignal): Request {
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const method = event.requestContext.http.method.toUpperCase();
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers)) if (value !== undefined) headers.set(name, value);
  const hasBody = event.body !== undefined && method !== 'GET' && method !== 'HEAD';
  return new Request(`${requestOrigin(event)}${event.rawPath}${query}`, {
    method,
    headers,
    ...(hasBody ? { body: event.isBase64Encoded ? Buffer.from(event.body!, 'base64') : event.body } : {}),
    ...(signal ? { signal } : {}),
  });
}

/** Streams a web-standard Response through a sink as it is produced (server-sent events pass at once), with extra headers. */
export async function sendWebResponse(response: Response, sink: ResponseSink, extraHeaders: Record<string, string> = {}): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  sink.start(response.status, { ...headers, ...extraHeaders });
  if (response.body) {
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        if (text) sink.write(text);
      }
    } catch (error) {
      if (!sink.signal.aborted) throw error;
    }
    const rest = decoder.decode();
    if (rest) sink.write(rest);
  }
  sink.end();
}
