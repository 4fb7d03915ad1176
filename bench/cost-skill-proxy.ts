import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A loopback pass-through in front of a built-in skill's server: in AWS each HTTP request to a skill is one invocation
 * of its function (through its Function URL), so the proxy reports each request and how long the skill took to answer
 * it (request received to response sent; the hop itself adds a loopback round trip).
 */
export async function startTimingProxy(target: string, onInvocation: (durationMs: number) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((incoming, outgoing) => {
    const started = performance.now();
    outgoing.once('finish', () => onInvocation(performance.now() - started));
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.once('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}
