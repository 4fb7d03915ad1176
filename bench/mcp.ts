import { randomBase62 } from '@service/shared';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { connectByConsent } from '../lambdas/test/mcp/oauth-flow';
import { formatFigures, formatRatio, measure } from './measure';

/**
 * list_agents over MCP (streamable HTTP, bearer token verified against its connection and the person's role, the
 * call recorded) against REST agents/list with an API key, on the same local platform, in the same process.
 */
export async function benchMcp(count = 1500, concurrency = 8): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const platform = await startPlatform({ port: 0, env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' } });
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
    // One request at a time (the latency a single assistant sees), then `concurrency` in flight (throughput).
    const restAlone = await measure('GET agents/list (REST, API key), 1 in flight', count / 3, 1, overRest);
    const mcpAlone = await measure('tools/call list_agents (MCP), 1 in flight', count / 3, 1, overMcp);
    const rest = await measure(`GET agents/list (REST, API key), ${concurrency} in flight`, count, concurrency, overRest);
    const mcp = await measure(`tools/call list_agents (MCP), ${concurrency} in flight`, count, concurrency, overMcp);
    return [
      formatFigures(restAlone),
      formatFigures(mcpAlone),
      formatRatio('list_agents over MCP vs REST agents/list, 1 in flight', mcpAlone, restAlone, { throughput: 1.3, p50: 1.3 }),
      formatFigures(rest),
      formatFigures(mcp),
      formatRatio(`list_agents over MCP vs REST agents/list, ${concurrency} in flight`, mcp, rest, { throughput: 1.3, p50: 1.3 }),
    ];
  } finally {
    await platform.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchMcp()) console.log(line);
