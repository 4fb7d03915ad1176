/**
 * Tool calls per second and p50/p99 latency through startSkill, against a bare official-SDK stateless
 * server (node:http + StreamableHTTPServerTransport, a fresh McpServer per request) with the same tool,
 * in the same process. startSkill is measured on its production path: the bearer on every call and a fresh
 * turn token every 4 calls (a turn lists the tools and calls a few with one token). Rounds alternate between
 * the two servers so drift on a busy machine hits both alike.
 *
 *   npx tsx skill-sdk/bench/tool-calls.ts
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { defineSkill, mintTurnToken, startSkill, z } from '../src/index';

export interface ServerFigures {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}
export interface ToolCallsBench {
  skill: ServerFigures;
  bare: ServerFigures;
  /** skill calls/s divided by bare calls/s; the target is at least 0.8. */
  ratio: number;
}
export interface ToolCallsBenchOptions {
  /** Calls per round and server. */
  calls?: number;
  rounds?: number;
  /** Calls in flight at once. */
  concurrency?: number;
}

const input = { text: z.string().max(1000) };
const echo = async ({ text }: { text: string }) => ({ text, length: text.length });

function startBareServer(): Promise<Server> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const mcp = new McpServer({ name: 'bench', version: '1.0.0' });
    mcp.registerTool('bench__echo', { description: 'Echo', inputSchema: input }, async (args) => {
      const result = await echo(args);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, JSON.parse(body));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

type HeadersFor = () => Record<string, string>;

const WARM_UP = 300;
const CALLS_PER_TURN = 4;

async function drive(url: string, headersFor: HeadersFor, calls: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bench__echo', arguments: { text: 'hello' } } });
  const worker = async () => {
    while (next < calls) {
      next++;
      const headers = headersFor();
      const started = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
      });
      const reply = (await response.json()) as { result?: { isError?: boolean } };
      if (!response.ok || !reply.result || reply.result.isError) throw new Error(`bench call failed: ${JSON.stringify(reply)}`);
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { elapsedMs: performance.now() - started, latencies };
}

function figures(runs: { elapsedMs: number; latencies: number[] }[]): ServerFigures {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const elapsed = runs.reduce((sum, r) => sum + r.elapsedMs, 0);
  return {
    callsPerSecond: Math.round((latencies.length / elapsed) * 1000),
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
  };
}

export async function benchToolCalls({ calls = 200, rounds = 10, concurrency = 4 }: ToolCallsBenchOptions = {}): Promise<ToolCallsBench> {
  const bearer = 'bench-bearer';
  const secret = 'bench-turn-token-key-0123456789abcdefgh';
  const skill = defineSkill({
    code: 'bench',
    version: '1.0.0',
    defaultLocale: 'en',
    tools: { echo: { description: 'Echo', input, handler: echo } },
  });
  const running = await startSkill(skill, { port: 0, bearer, turnTokenSecret: secret, log: { error: console.error, warn: () => undefined } });
  const bare = await startBareServer();
  // Distinct tokens for every turn of the whole run, minted up front so minting is not measured.
  const tokens = await Promise.all(
    Array.from({ length: Math.ceil((WARM_UP + rounds * calls) / CALLS_PER_TURN) }, () =>
      mintTurnToken({ accountId: '3c1f2e4d-5a6b-4c7d-8e9f-0a1b2c3d4e5f', capabilities: ['bench.echo'] }, { secret }),
    ),
  );
  let skillCalls = 0;
  const skillHeaders: HeadersFor = () => ({
    authorization: `Bearer ${bearer}`,
    'x-service-turn-token': tokens[Math.floor(skillCalls++ / CALLS_PER_TURN)] as string,
    'x-service-language': 'en',
  });
  const skillTarget = [`${running.url}/mcp`, skillHeaders] as const;
  const bareTarget = [`http://127.0.0.1:${(bare.address() as AddressInfo).port}/mcp`, () => ({})] as const;
  try {
    // Warm up both (JIT, connection pools) before measuring.
    await drive(...skillTarget, WARM_UP, concurrency);
    await drive(...bareTarget, WARM_UP, concurrency);
    const skillRuns = [];
    const bareRuns = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first so neither always runs on a warmer process.
      if (round % 2 === 0) {
        skillRuns.push(await drive(...skillTarget, calls, concurrency));
        bareRuns.push(await drive(...bareTarget, calls, concurrency));
      } else {
        bareRuns.push(await drive(...bareTarget, calls, concurrency));
        skillRuns.push(await drive(...skillTarget, calls, concurrency));
      }
    }
    const result = { skill: figures(skillRuns), bare: figures(bareRuns), ratio: 0 };
    result.ratio = Number((result.skill.callsPerSecond / result.bare.callsPerSecond).toFixed(2));
    console.log(
      [
        `skill-sdk tool calls (${rounds} x ${calls} calls, concurrency ${concurrency}):`,
        `  startSkill      ${result.skill.callsPerSecond} calls/s  p50 ${result.skill.p50Ms} ms  p99 ${result.skill.p99Ms} ms`,
        `  bare SDK server ${result.bare.callsPerSecond} calls/s  p50 ${result.bare.p50Ms} ms  p99 ${result.bare.p99Ms} ms`,
        `  ratio ${result.ratio}x (target >= 0.8x) ${result.ratio >= 0.8 ? 'met' : 'NOT MET'}`,
      ].join('\n'),
    );
    return result;
  } finally {
    await running.close();
    bare.closeAllConnections();
    await new Promise((resolve) => bare.close(resolve));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchToolCalls();
}
