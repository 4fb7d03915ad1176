/**
 * The callers of bench/skill-calls.ts, on a thread of their own: on the servers' thread, reading an answer would
 * wait behind the server's next request. One node:http keep-alive client for both servers; the rounds alternate
 * (measureRounds) and their figures are posted back.
 */
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { measureRounds, type Pair } from './measure';

export interface Target {
  url: string;
  headers: Record<string, string>;
  /** A header whose value changes every `every` calls (a turn token per turn), cycling through `values`. */
  rotating?: { header: string; values: string[]; every: number };
}
export interface ClientPlan {
  labels: { baseline: string; candidate: string };
  baseline: Target;
  candidate: Target;
  /** The JSON-RPC request every call sends. */
  body: string;
  warmUp: number;
  countPerRound: number;
  concurrency: number;
  rounds: number;
}
export type ClientAnswer = { rounds: Pair[] } | { error: string };

const plan = workerData as ClientPlan;
const agent = new Agent({ keepAlive: true, maxSockets: plan.concurrency });

function caller(target: Target): () => Promise<void> {
  let calls = 0;
  const fixed = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(plan.body)), ...target.headers };
  return () => {
    const { rotating } = target;
    const headers = rotating ? { ...fixed, [rotating.header]: rotating.values[Math.floor(calls / rotating.every) % rotating.values.length]! } : fixed;
    calls++;
    return new Promise((resolve, reject) => {
      const req = request(target.url, { method: 'POST', agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const reply = JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: unknown } };
          if (res.statusCode !== 200 || !reply.result?.structuredContent || reply.result.isError) reject(new Error(`${target.url} answered ${res.statusCode}: ${text.slice(0, 300)}`));
          else resolve();
        });
      });
      req.on('error', reject);
      req.end(plan.body);
    });
  };
}

try {
  const tasks = { baseline: caller(plan.baseline), candidate: caller(plan.candidate) };
  // Warm both (JIT, sockets, caches) before anything is measured.
  await measureRounds(plan.labels, tasks, plan.warmUp, plan.concurrency, 1);
  const rounds = await measureRounds(plan.labels, tasks, plan.countPerRound, plan.concurrency, plan.rounds);
  parentPort!.postMessage({ rounds } satisfies ClientAnswer);
} catch (error) {
  parentPort!.postMessage({ error: String((error as Error).stack ?? error) } satisfies ClientAnswer);
} finally {
  agent.destroy();
}
