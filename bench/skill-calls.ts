/**
 * Skill tool calls: `startSkill` against bare official-SDK stateless servers (node:http +
 * StreamableHTTPServerTransport, a fresh McpServer and transport per request, as the SDK's stateless example does)
 * serving the same tool with the same input schema. Each server runs in a process of its own and the callers in this
 * one (skill-calls-server.ts, skill-calls-client.ts). startSkill runs its production path: the bearer on every call
 * and a fresh turn token every few calls (a turn calls a few tools with one token), each verified.
 *
 * A round measures both servers back to back, the first of them alternating from round to round; each side of a
 * round is warmed (sockets, caches) and its process's heap collected just before it is measured, so both start from
 * the same state. Every round is printed.
 *
 * The target is the bare server as a skill author who configures the SDK well writes it: its per-request servers given
 * one shared validator (each protocol Server builds its own Ajv instance unless given one), as startSkill's are; what
 * is left is startSkill's own work (bearer, turn token, context, deadline). The same comparison runs again, for
 * information, against the bare server as the SDK's example writes it (a validator built per request).
 *
 *   npx tsx bench/run.ts skills
 */
import type { Agent } from 'node:http';
import { mintTurnToken, TURN_TOKEN_HEADER } from '../skill-sdk/src/index';
import { formatFigures, measure, median, medianOf, type Figures, type Pair } from './measure';
import { caller, keepAliveAgent } from './skill-calls-client';
import { startServerProcess, type ServerKind, type ServerProcess } from './skill-calls-server';

/** Issue 40: startSkill at least 1.2x the best-configured bare server by throughput, its p99 at most 0.9x, median of 5 alternating rounds. */
const TARGETS = { throughput: 1.2, p99: 0.9 };
const CALLS_PER_TURN = 4;
const CANDIDATE = 'startSkill';
const BEARER = 'bench-bearer';
const SECRET = 'bench-turn-token-key-0123456789abcdefgh';
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bench__echo', arguments: { text: 'hello' } } });

interface Plan {
  countPerRound: number;
  rounds: number;
  concurrency: number;
  /** Calls to each server before the first round (JIT, sockets). */
  warmUp: number;
  /** Calls to a server just before each of its rounds, not measured. */
  warmUpPerRound: number;
}
type Side = keyof Pair;

/** Which server a round measures first: by turns, so neither always follows the other. */
const sidesInOrder = (round: number): Side[] => (round % 2 === 0 ? ['baseline', 'candidate'] : ['candidate', 'baseline']);

/** A distinct token for every turn of `calls` calls, minted just before use (they live two minutes). */
const turnTokens = (calls: number) =>
  Promise.all(
    Array.from({ length: Math.ceil(calls / CALLS_PER_TURN) }, () =>
      mintTurnToken({ accountId: '3c1f2e4d-5a6b-4c7d-8e9f-0a1b2c3d4e5f', capabilities: ['bench.echo'] }, { secret: SECRET }),
    ),
  );

/** `rounds` rounds of both servers, each round's figures. */
async function measureRounds(agent: Agent, servers: Record<Side, ServerProcess>, labels: Record<Side, string>, plan: Plan): Promise<Pair[]> {
  const { countPerRound, concurrency, warmUpPerRound } = plan;
  const taskFor = (side: Side, tokens: string[]) =>
    side === 'baseline'
      ? caller(agent, { url: servers.baseline.url, headers: {} }, BODY)
      : caller(
          agent,
          {
            url: servers.candidate.url,
            headers: { authorization: `Bearer ${BEARER}`, 'x-service-language': 'en' },
            rotating: { header: TURN_TOKEN_HEADER, values: tokens, every: CALLS_PER_TURN },
          },
          BODY,
        );
  await measure('warm-up', plan.warmUp, concurrency, taskFor('baseline', []));
  await measure('warm-up', plan.warmUp, concurrency, taskFor('candidate', await turnTokens(plan.warmUp)));
  const rounds: Pair[] = [];
  for (let round = 0; round < plan.rounds; round++) {
    const figures: Partial<Pair> = {};
    for (const side of sidesInOrder(round)) {
      // Minted just before each side (the baseline's go unused), so their garbage in this process weighs on both
      // sides alike, and a side on a loaded machine (a round can last longer than a token lives) never meets an expired one.
      const task = taskFor(side, await turnTokens(warmUpPerRound + countPerRound));
      await measure('warm-up', warmUpPerRound, concurrency, task);
      await servers[side].collectGarbage();
      figures[side] = await measure(labels[side], countPerRound, concurrency, task);
    }
    rounds.push(figures as Pair);
  }
  return rounds;
}

const ratios = (pair: Pair) => ({ throughput: pair.candidate.perSecond / pair.baseline.perSecond, p99: pair.candidate.p99Ms / pair.baseline.p99Ms });
const labelled = (figures: Figures, prefix: string) => formatFigures({ ...figures, label: `${prefix} ${figures.label}` });

/**
 * Each round, the medians over rounds, and the verdict. Judged on the median of the rounds' own ratios: the two sides
 * of a round are measured back to back, under the same load, while the machine's load drifts from round to round
 * (other processes share its cores), which a ratio of the medians over rounds does not cancel (its two medians may
 * come from different rounds). The median rather than the mean, so that one round disturbed elsewhere does not decide.
 */
function report(measured: Pair[], baseline: string, judged: boolean): string[] {
  const lines: string[] = [];
  const perRound = measured.map(ratios);
  measured.forEach((pair, index) => {
    const { throughput, p99 } = perRound[index]!;
    const [first, second] = sidesInOrder(index) as [Side, Side];
    lines.push(
      labelled(pair[first], `round ${index + 1}`),
      `${labelled(pair[second], `round ${index + 1}`)}   ${throughput.toFixed(2)}x by throughput, p99 ${p99.toFixed(2)}x`,
    );
  });
  const medians = {
    baseline: medianOf(
      baseline,
      measured.map((pair) => pair.baseline),
    ),
    candidate: medianOf(
      CANDIDATE,
      measured.map((pair) => pair.candidate),
    ),
  };
  lines.push(labelled(medians.baseline, 'median '), labelled(medians.candidate, 'median '));
  const throughput = median(perRound.map((r) => r.throughput));
  const p99 = median(perRound.map((r) => r.p99));
  const judge = (ratio: number, met: boolean, target: string) => `${ratio.toFixed(2)}x` + (judged ? ` (target ${target}: ${met ? 'met' : 'NOT met'})` : '');
  const ofMedians = ratios(medians);
  lines.push(
    `startSkill vs the ${baseline}, median of the rounds' own ratios: ${judge(throughput, throughput >= TARGETS.throughput, `>= ${TARGETS.throughput}x`)} by throughput, ` +
      `${judge(p99, p99 <= TARGETS.p99, `<= ${TARGETS.p99}x`)} by p99; ratio of the medians over rounds ${ofMedians.throughput.toFixed(2)}x by throughput, ` +
      `${ofMedians.p99.toFixed(2)}x by p99 (p50 ${(medians.candidate.p50Ms / medians.baseline.p50Ms).toFixed(2)}x)` +
      (judged ? '' : ' (for information, no target)'),
  );
  return lines;
}

export async function benchSkillCalls({ countPerRound = 5000, rounds = 5, concurrency = 4, warmUp = 3000, warmUpPerRound = 500 } = {}): Promise<string[]> {
  const plan = { countPerRound, rounds, concurrency, warmUp, warmUpPerRound };
  const baselines: { kind: ServerKind; label: string; judged: boolean }[] = [
    { kind: 'bare-shared', label: 'bare SDK server sharing one validator', judged: true },
    { kind: 'bare', label: 'bare SDK stateless server', judged: false },
  ];
  const agent = keepAliveAgent(concurrency);
  const candidate = await startServerProcess('startSkill', { SKILL_BEARER: BEARER, SKILL_TURN_TOKEN_SECRET: SECRET });
  try {
    const lines = [
      `${rounds} rounds of ${countPerRound} tools/call per server (each server in a process of its own, warmed with ${warmUpPerRound} calls and its heap collected before each round, ` +
        `the first server alternating), ${concurrency} in flight, a turn token every ${CALLS_PER_TURN} calls:`,
    ];
    for (const { kind, label, judged } of baselines) {
      const baseline = await startServerProcess(kind);
      try {
        const measured = await measureRounds(agent, { baseline, candidate }, { baseline: label, candidate: CANDIDATE }, plan);
        lines.push(...report(measured, label, judged));
      } finally {
        await baseline.stop();
      }
    }
    return lines;
  } finally {
    agent.destroy();
    await candidate.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchSkillCalls()) console.log(line);
