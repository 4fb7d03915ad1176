import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  at: number;
  method: string;
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
  event: { id: string; event: string; created_at: string; data: Record<string, unknown> };
  /** The status this receiver answered (undefined when it never answered). */
  answered?: number;
}

/** What to answer to the n-th request (0-based); 'hang' never answers. */
export type Responder = (request: ReceivedRequest, index: number) => number | 'hang';

/** A real webhook receiver on 127.0.0.1 (free port) that records every request with its raw body. */
export async function startReceiver(respond: Responder = () => 200) {
  const requests: ReceivedRequest[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const received: ReceivedRequest = {
        at: Date.now(),
        method: req.method ?? '',
        headers: req.headers,
        rawBody,
        event: JSON.parse(rawBody.toString('utf8')),
      };
      const index = requests.push(received) - 1;
      const answer = respond(received, index);
      if (answer !== 'hang') {
        received.answered = answer;
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
      }
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    /**
     * Resolves once `predicate` holds (checked after every request). Rejects after `timeoutMs`, counted from the
     * call, or with `{ idle: true }` from the latest request: a long delivery on a busy machine keeps waiting while
     * requests keep arriving, and only a sender that stopped fails.
     */
    async waitFor(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs = 20_000, options: { idle?: boolean } = {}): Promise<void> {
      const since = Date.now();
      const from = () => (options.idle ? Math.max(since, requests.at(-1)?.at ?? since) : since);
      while (!predicate(requests)) {
        const left = from() + timeoutMs - Date.now();
        if (left <= 0)
          throw new Error(`receiver: condition not met after ${timeoutMs} ms${options.idle ? ' without a request' : ''} (${requests.length} requests)`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 250));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
