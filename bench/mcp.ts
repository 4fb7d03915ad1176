import { Worker } from 'node:worker_threads';
import { randomBase62 } from '@service/shared';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { connectByConsent } from '../lambdas/test/mcp/oauth-flow';
import { startDynaliteProcess } from './dynalite-process';

interface ClientPlan {
  rest: { url: string; headers: Record<string, string> };
  mcp: { url: string; headers: Record<string, string>; body: string };
  count: number;
  inFlight: number;
}

/**
 * The callers, on a thread of their own (an assistant and a backend call from elsewhere: on the server's thread, the
 * client's reading of an answer would wait behind the server's work after it, such as the MCP call's audit record).
 * The two requests alternate request by request in every worker, after a warm-up of each; it posts the latencies back.
 */
const CLIENT = `
const { parentPort, workerData: plan } = require('node:worker_threads');
const overRest = async () => {
  const response = await fetch(plan.rest.url, { headers: plan.rest.headers });
  if (response.status !== 200) throw new Error('agents/list answered ' + response.status);
  await response.arrayBuffer();
};
const overMcp = async () => {
  const response = await fetch(plan.mcp.url, { method: 'POST', headers: plan.mcp.headers, body: plan.mcp.body });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('structuredContent')) throw new Error('list_agents answered ' + response.status + ': ' + text.slice(0, 200));
};
(async () => {
  for (let i = 0; i < 200; i++) { await overRest(); await overMcp(); }
  const latencies = { rest: [], mcp: [] };
  let next = 0;
  await Promise.all(Array.from({ length: plan.inFlight }, async (_, worker) => {
    while (next < plan.count) {
      const index = next++;
      const kind = (index + worker) % 2 === 0 ? 'rest' : 'mcp';
      const t0 = performance.now();
      await (kind === 'rest' ? overRest() : overMcp());
      latencies[kind].push(performance.now() - t0);
    }
  }));
  parentPort.postMessage(latencies);
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

function runClients(plan: ClientPlan): Promise<{ rest: number[]; mcp: number[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: plan });
    worker.once('message', (message: { rest: number[]; mcp: number[] } | { error: string }) =>
      'error' in message ? reject(new Error(message.error)) : resolve(message),
    );
    worker.once('error', reject);
  });
}

/**
 * list_agents over MCP (streamable HTTP, bearer token verified against its connection and the person's role, the
 * call recorded after the answer) against REST agents/list with an API key, on the same local platform, with dynalite
 * in a process of its own (dynalite-process.ts) and the callers on a thread of their own.
 */
export async function benchMcp(count = 1500, concurrency = 8): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({ port: 0, dynamoEndpoint: dynalite.endpoint, env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' } });
  try {
    await platform.queue.stop();
    const origin = platform.url;
    const tokens = await connectByConsent(origin, platform.demo.ownerEmail, ['agents:read', 'agents:ask'], 'Bench');
    const requests = {
      rest: { url: `${platform.apiBaseUrl}/agents/list/`, headers: { 'x-service-api-key': key } },
      mcp: {
        url: `${origin}/mcp`,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: `Bearer ${tokens.access_token}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_agents', arguments: {} } }),
      },
    };
    // One worker is the latency an assistant sees, several the cost under load.
    const lines: string[] = [];
    for (const inFlight of [1, concurrency]) {
      const latencies = await runClients({ ...requests, count, inFlight });
      const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      const [rest, mcp] = [median(latencies.rest), median(latencies.mcp)];
      const ratio = mcp / rest;
      lines.push(
        `${inFlight} in flight, alternating (n=${count}): REST agents/list p50 ${rest.toFixed(2)} ms, MCP list_agents p50 ${mcp.toFixed(2)} ms: ${ratio.toFixed(2)}x (target 1.3x: ${ratio <= 1.3 ? 'met' : 'NOT met'})`,
      );
    }
    return lines;
  } finally {
    await platform.stop();
    await dynalite.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchMcp()) console.log(line);
