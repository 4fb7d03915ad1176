import { randomBase62 } from '@service/shared';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { connectByConsent } from '../lambdas/test/mcp/oauth-flow';
import { startDynaliteProcess } from './dynalite-process';
import { measure } from './measure';

/**
 * list_agents over MCP (streamable HTTP, bearer token verified against its connection and the person's role, the
 * call recorded) against REST agents/list with an API key, on the same local platform, in the same process.
 */
export async function benchMcp(count = 1500, concurrency = 8): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({ port: 0, dynamoEndpoint: dynalite.endpoint, env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' } });
  try {
    await platform.queue.stop();
    const origin = platform.url;
    const tokens = await connectByConsent(origin, platform.demo.ownerEmail, ['agents:read', 'agents:ask'], 'Bench');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_agents', arguments: {} } });
    const mcpHeaders = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${tokens.access_token}`,
    };
    const overMcp = async () => {
      const response = await fetch(`${origin}/mcp`, { method: 'POST', headers: mcpHeaders, body });
      const text = await response.text();
      if (response.status !== 200 || !text.includes('structuredContent')) throw new Error(`list_agents answered ${response.status}: ${text.slice(0, 200)}`);
    };
    const overRest = async () => {
      const response = await fetch(`${platform.apiBaseUrl}/agents/list/`, { headers: { 'x-service-api-key': key } });
      if (response.status !== 200) throw new Error(`agents/list answered ${response.status}`);
      await response.arrayBuffer();
    };
    await measure('warm-up', 200, concurrency, overRest);
    await measure('warm-up', 200, concurrency, overMcp);
    // The two alternate request by request in every worker, so a machine whose load drifts (other processes on the
    // same cores) weighs on both alike; one worker is the latency an assistant sees, several the cost under load.
    const lines: string[] = [];
    for (const inFlight of [1, concurrency]) {
      const latencies = { rest: [] as number[], mcp: [] as number[] };
      let next = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async (_, worker) => {
          while (next < count) {
            const index = next++;
            const kind = (index + worker) % 2 === 0 ? 'rest' : 'mcp';
            const t0 = performance.now();
            await (kind === 'rest' ? overRest() : overMcp());
            latencies[kind].push(performance.now() - t0);
          }
        }),
      );
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
