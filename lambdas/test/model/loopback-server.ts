import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A scripted HTTP server on 127.0.0.1 and a free port, standing in for a hosted model API: it records each
// request and answers it with the next scripted reply.

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type Reply = (response: ServerResponse) => void;

export function jsonReply(body: unknown, status = 200): Reply {
  return (response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
}

/** Server-sent events, one `data:` line per chunk, ended by `data: [DONE]` as OpenAI does. */
export function sseReply(chunks: unknown[]): Reply {
  return (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of chunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    response.end('data: [DONE]\n\n');
  };
}

export interface LoopbackServer {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startLoopbackServer(replies: Reply[]): Promise<LoopbackServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: text ? JSON.parse(text) : undefined });
      const reply = replies[received.length - 1];
      if (reply) reply(response);
      else jsonReply({ message: `no scripted reply for request ${received.length}` }, 500)(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
