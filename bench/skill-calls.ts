/**
 * Skill tool calls: `startSkill` against the bare official-SDK stateless server (node:http +
 * StreamableHTTPServerTransport, a fresh McpServer and transport per request, as the SDK's stateless example does)
 * serving the same tool with the same input schema, both in this process, the callers on a thread of their own
 * (skill-calls-client.ts). startSkill runs its production path: the bearer on every call and a fresh turn token every
 * few calls (a turn calls a few tools with one token), each verified. Rounds alternate (bare, startSkill, bare, …) and
 * each is printed; the targets are judged on the medians over rounds.
 *
 * The bare server as the SDK's example writes it builds an Ajv validator per request (each protocol Server does,
 * unless given one); startSkill shares one. So the same comparison runs again, for information, against a bare server
 * given one shared validator too: what is left is startSkill's own work (bearer, turn token, context, deadline).
 *
 *   npx tsx bench/skill-calls.ts
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { defineSkill, mintTurnToken, startSkill, TURN_TOKEN_HEADER, z } from '../skill-sdk/src/index';
import { formatFigures, median, medianOf, type Figures, type Pair } from './measure';
import type { ClientAnswer, ClientPlan, Target } from './skill-calls-client';

const TARGETS = { throughput: 1.0, p99: 1.0 };
const CALLS_PER_TURN = 4;
const CANDIDATE = 'startSkill';

const input = { text: z.string().max(1000) };
const echo = async ({ text }: { text: string }) => ({ text, length: text.length });

function startBareServer(jsonSchemaValidator?: AjvJsonSchemaValidator): Promise<Server> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const mcp = new McpServer({ name: 'bench', version: '1.0.0' }, jsonSchemaValidator && { jsonSchemaValidator });
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

function runClients(plan: ClientPlan): Promise<Pair[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./skill-calls-client.ts', import.meta.url), { workerData: plan });
    worker.once('message', (answer: ClientAnswer) => ('error' in answer ? reject(new Error(answer.error)) : resolve(answer.rounds)));
    worker.once('error', reject);
  });
}

const verdict = (ratio: number, met: boolean, target: string) => `${ratio.toFixed(2)}x (target ${target}: ${met ? 'met' : 'NOT met'})`;
const ratios = (pair: Pair) => ({ throughput: pair.candidate.perSecond / pair.baseline.perSecond, p99: pair.candidate.p99Ms / pair.baseline.p99Ms });
const labelled = (figures: Figures, prefix: string) => formatFigures({ ...figures, label: `${prefix} ${figures.label}` });

/** Each round, the medians over rounds and the ratios; against the targets when `judged`. */
function report(measured: Pair[], baseline: string, judged: boolean): string[] {
  const lines: string[] = [];
  const perRound = measured.map(ratios);
  measured.forEach((pair, index) => {
    const { throughput, p99 } = perRound[index]!;
    lines.push(labelled(pair.baseline, `round ${index + 1}`), `${labelled(pair.candidate, `round ${index + 1}`)}   ${throughput.toFixed(2)}x by throughput, p99 ${p99.toFixed(2)}x`);
  });
  const medians = { baseline: medianOf(baseline, measured.map((pair) => pair.baseline)), candidate: medianOf(CANDIDATE, measured.map((pair) => pair.candidate)) };
  lines.push(labelled(medians.baseline, 'median '), labelled(medians.candidate, 'median '));
  const { throughput, p99 } = ratios(medians);
  const judge = (ratio: number, met: boolean, target: string) => (judged ? verdict(ratio, met, target) : `${ratio.toFixed(2)}x`);
  lines.push(
    `startSkill vs the ${baseline}, medians over rounds: ${judge(throughput, throughput >= TARGETS.throughput, `>= ${TARGETS.throughput}x`)} by throughput, ` +
      `${judge(p99, p99 <= TARGETS.p99, `<= ${TARGETS.p99}x`)} by p99 (p50 ${(medians.candidate.p50Ms / medians.baseline.p50Ms).toFixed(2)}x); ` +
      `median of the rounds' own ratios ${median(perRound.map((r) => r.throughput)).toFixed(2)}x by throughput, ${median(perRound.map((r) => r.p99)).toFixed(2)}x by p99` +
      (judged ? '' : ' (for information, no target)'),
  );
  return lines;
}

export async function benchSkillCalls({ countPerRound = 2000, rounds = 5, concurrency = 4, warmUp = 5000 } = {}): Promise<string[]> {
  const bearer = 'bench-bearer';
  const secret = 'bench-turn-token-key-0123456789abcdefgh';
  const skill = defineSkill({ code: 'bench', version: '1.0.0', defaultLocale: 'en', tools: { echo: { description: 'Echo', input, handler: echo } } });
  const running = await startSkill(skill, { port: 0, bearer, turnTokenSecret: secret, log: { error: console.error, warn: () => undefined, info: () => undefined } });
  const baselines = [
    { label: 'bare SDK stateless server', server: await startBareServer(), judged: true },
    { label: 'bare SDK server sharing one validator', server: await startBareServer(new AjvJsonSchemaValidator()), judged: false },
  ];
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bench__echo', arguments: { text: 'hello' } } });
    const lines = [`${rounds} alternating rounds of ${countPerRound} tools/call per server, ${concurrency} in flight, a turn token every ${CALLS_PER_TURN} calls:`];
    for (const { label, server, judged } of baselines) {
      // A distinct token for every turn, minted just before (they live two minutes) so minting is not measured.
      const tokens = await Promise.all(
        Array.from({ length: Math.ceil((warmUp + rounds * countPerRound) / CALLS_PER_TURN) }, () =>
          mintTurnToken({ accountId: '3c1f2e4d-5a6b-4c7d-8e9f-0a1b2c3d4e5f', capabilities: ['bench.echo'] }, { secret }),
        ),
      );
      const candidate: Target = {
        url: `${running.url}/mcp`,
        headers: { authorization: `Bearer ${bearer}`, 'x-service-language': 'en' },
        rotating: { header: TURN_TOKEN_HEADER, values: tokens, every: CALLS_PER_TURN },
      };
      const baseline: Target = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, headers: {} };
      const measured = await runClients({ labels: { baseline: label, candidate: CANDIDATE }, baseline, candidate, body, warmUp, countPerRound, concurrency, rounds });
      lines.push(...report(measured, label, judged));
    }
    return lines;
  } finally {
    await running.close();
    for (const { server } of baselines) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchSkillCalls()) console.log(line);
