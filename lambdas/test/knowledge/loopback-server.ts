import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resolver } from '../../src/infra/net/outbound-guard';

export interface LoopbackServer {
  port: number;
  /** Every request's path, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (free port) answering with `handler`. */
export async function startLoopbackServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<LoopbackServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** DNS for tests: names of the `.test` sites resolve to the addresses given, anything else fails as unknown. */
export function testResolver(names: Record<string, string>): Resolver {
  return (hostname, _options, callback) => {
    const address = names[hostname.toLowerCase()];
    if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  };
}
