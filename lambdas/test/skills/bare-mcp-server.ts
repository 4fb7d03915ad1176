import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { ApiCall } from '../support/platform';

export interface BareServer {
  url: string;
  /** Headers of every tools/call the server answered. */
  calls: { headers: IncomingHttpHeaders; args: unknown }[];
  /** Every request to /mcp: its HTTP method, for a POST its JSON-RPC method, and its headers. */
  requests: { http: string; rpc?: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/**
 * A Path B skill as anyone would write it with the official SDK alone: stateless streamable HTTP (a fresh server and
 * transport per request), one tool `forecast`, no manifest unless `manifest` is given. `gate`, when given, is awaited
 * by each call after it was counted: the test decides when the tool answers.
 */
export async function startBareMcpServer(options: { manifest?: object; gate?: () => Promise<void> } = {}): Promise<BareServer> {
  const calls: BareServer['calls'] = [];
  const requests: BareServer['requests'] = [];
  const server = createServer(async (req, res) => {
    if (req.url === '/mcp' && req.method !== 'POST') requests.push({ http: req.method ?? '', headers: req.headers });
    if (req.method === 'GET' && req.url === '/manifest' && options.manifest) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(options.manifest));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/mcp') return void res.writeHead(req.url === '/mcp' ? 405 : 404).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    requests.push({ http: 'POST', rpc: (body as { method?: string }).method, headers: req.headers });
    const mcp = new McpServer({ name: 'Weather Station', version: '2.1.0' });
    mcp.registerTool(
      'forecast',
      { description: 'Weather forecast for a city', inputSchema: { city: z.string().min(1) }, annotations: { readOnlyHint: true } },
      async ({ city }) => {
        calls.push({ headers: req.headers, args: { city } });
        await options.gate?.();
        return { content: [{ type: 'text', text: `Sunny in ${city}` }], structuredContent: { city, summary: 'sunny' } };
      },
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Registers the bare server as the skill `weather`, installs it on the agent and grants its forecast to `role`. */
export async function offerWeatherSkill(api: ApiCall, server: BareServer, agentId: string, role: string): Promise<void> {
  const steps: [path: string, body: Record<string, unknown>, status: number][] = [
    ['skills/register/', { url: server.url, code: 'weather', bearer: 'weather-bearer-0123456789' }, 201],
    ['skills/install/', { agent_id: agentId, skill_code: 'weather' }, 200],
    ['grants/create/', { role, capability: 'weather.forecast' }, 201],
  ];
  for (const [path, body, status] of steps) {
    const response = await api(path, { body });
    if (response.status !== status) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
}
