import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { newRunId, randomBase62 } from '@service/shared';
import type { SoakReply, SoakRequest, SoakTarget } from './soak-target';

/** The soak's length: 3 minutes of traffic, then a minute at idle; SOAK_SECONDS shortens both for a quick run. */
const TRAFFIC_S = Number(process.env.SOAK_SECONDS ?? 180);
const IDLE_S = Math.max(10, Math.round(TRAFFIC_S / 3));
const SAMPLE_MS = Math.max(1000, (TRAFFIC_S * 1000) / 36);
/** RSS may rise by 10 % over the second half of the traffic; at idle it must not climb (no more than that, and no upward trend). */
const SPREAD_LIMIT = 0.1;
const IDLE_SLOPE_LIMIT_MB_PER_S = 0.05;
const LOCAL_ORIGIN = 'http://localhost:5173';

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(0);

export interface SoakProcess {
  url: string;
  pid: number;
  memory(): Promise<NodeJS.MemoryUsage>;
  invoke(event: unknown): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a soak target (soak-target.ts) in a Node process of its own, its memory the measured figure. */
export async function startSoakProcess(target: SoakTarget, env: Record<string, string> = {}): Promise<SoakProcess> {
  const child = fork(join(import.meta.dirname, 'soak-target.ts'), [], {
    // SOAK_GC=1: each memory sample follows a full collection (live memory apart from garbage), for diagnosis.
    execArgv: ['--import', 'tsx', ...(process.env.SOAK_GC === '1' ? ['--expose-gc'] : [])],
    env: { ...process.env, ...env, SOAK_TARGET: JSON.stringify(target) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (reply: SoakReply) => void>();
  let nextId = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (reply: SoakReply) => {
      if ('ready' in reply) return resolve(reply.ready);
      waiting.get(reply.id)?.(reply);
      waiting.delete(reply.id);
    });
    child.once('exit', (code) => reject(new Error(`soak target ${JSON.stringify(target)} exited with ${code}`)));
  });
  const ask = (request: Omit<SoakRequest, 'id'>) =>
    new Promise<SoakReply>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.send({ ...request, id });
    });
  return {
    url,
    pid: child.pid!,
    memory: async () => ((await ask({ memory: true })) as { memory: NodeJS.MemoryUsage }).memory,
    invoke: async (event) => {
      const reply = await ask({ event });
      if ('error' in reply) throw new Error(reply.error);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

/** One request of the traffic: resolves with the answer's status once its body is read. */
export type Call = () => Promise<number>;

async function statusOf(response: Response): Promise<number> {
  await response.arrayBuffer();
  return response.status;
}

/** The local platform's public requests a soak sends: commands with Idempotency-Keys, status polls, agent lists, widget config and chat. */
export function platformCalls(origin: string, key: string, agentId: string): Record<string, Call> {
  const api = `${origin}/en/api/v1`;
  const headers = { 'x-service-api-key': key, 'content-type': 'application/json' };
  const runIds: string[] = [];
  let sent = 0;
  return {
    command: async () => {
      const response = await fetch(`${api}/agents/command/`, {
        method: 'POST',
        // Some keys repeat: a retried command answers the run it already made.
        headers: { ...headers, 'idempotency-key': `soak-${sent++ % 500}` },
        body: JSON.stringify({ agent_id: agentId, instruction: 'Summarise the lead', data: { company: 'Acme' } }),
      });
      if (response.status === 202) runIds.push(((await response.json()) as { data: { run: { run_id: string } } }).data.run.run_id);
      if (runIds.length > 100) runIds.splice(0, 50);
      return response.bodyUsed ? response.status : statusOf(response);
    },
    status: async () => statusOf(await fetch(`${api}/agents/command_status/?run_id=${runIds.at(-1) ?? newRunId()}`, { headers })),
    list: async () => statusOf(await fetch(`${api}/agents/list/`, { headers })),
    widgetConfig: async () => statusOf(await fetch(`${origin}/v1/agents/${agentId}/widget-config`, { headers: { origin: LOCAL_ORIGIN } })),
    chat: async () =>
      statusOf(
        await fetch(`${origin}/v1/agents/${agentId}/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: LOCAL_ORIGIN },
          body: JSON.stringify({
            conversationId: crypto.randomUUID(),
            visitorId: crypto.randomUUID(),
            locale: 'en',
            messages: [{ role: 'user', content: 'Where is the pricing?' }],
          }),
        }),
      ),
  };
}

/**
 * `clients` callers at `perSecond` requests per second together, each taking the calls in turn, until `seconds`
 * have passed; answers counted by status.
 */
export async function drive(calls: Call[], options: { clients: number; perSecond: number; seconds: number }): Promise<Map<number | string, number>> {
  const counts = new Map<number | string, number>();
  const count = (status: number | string) => counts.set(status, (counts.get(status) ?? 0) + 1);
  const interval = (1000 * options.clients) / options.perSecond;
  const end = performance.now() + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.clients }, async (_, client) => {
      let next = performance.now() + (interval * client) / options.clients;
      for (let turn = client; performance.now() < end; turn++) {
        await sleep(Math.max(0, next - performance.now()));
        next += interval;
        await calls[turn % calls.length]!().then(count, () => count('error'));
      }
    }),
  );
  return counts;
}

interface Sample {
  atS: number;
  memory: NodeJS.MemoryUsage;
  /** RSS split as the kernel counts it: anonymous memory (heaps, malloc) and mapped files (code, LevelDB's tables). */
  rssAnon: number;
  rssFile: number;
}

/** A process's anonymous and file-backed resident memory, in bytes, from /proc (0 where there is none). */
function rssSplit(pid: number): { rssAnon: number; rssFile: number } {
  const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, 'utf8') : '';
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rssAnon: kb('RssAnon'), rssFile: kb('RssFile') };
}

/** Samples a process's memory every SAMPLE_MS while `work` runs. */
async function sampleWhile(target: SoakProcess, startedAt: number, work: Promise<unknown>): Promise<Sample[]> {
  const samples: Sample[] = [];
  let done = false;
  void work.finally(() => (done = true));
  while (!done) {
    samples.push({ atS: (performance.now() - startedAt) / 1000, memory: await target.memory(), ...rssSplit(target.pid) });
    await Promise.race([sleep(SAMPLE_MS), work.catch(() => undefined)]);
  }
  await work;
  return samples;
}

/** How far RSS rose above the window's first sample (a fall, memory given back, is not growth). */
const rise = (samples: Sample[]) => Math.max(...samples.map((sample) => sample.memory.rss)) / samples[0]!.memory.rss - 1;

/** Least-squares slope of RSS over time, in MB per second. */
function slopeMbPerS(samples: Sample[]): number {
  const meanT = samples.reduce((sum, s) => sum + s.atS, 0) / samples.length;
  const meanR = samples.reduce((sum, s) => sum + s.memory.rss, 0) / samples.length;
  const covariance = samples.reduce((sum, s) => sum + (s.atS - meanT) * (s.memory.rss - meanR), 0);
  const variance = samples.reduce((sum, s) => sum + (s.atS - meanT) ** 2, 0);
  return variance === 0 ? 0 : covariance / variance / MB;
}

/**
 * Drives `target` with `traffic` for TRAFFIC_S, then leaves it idle for IDLE_S, sampling its memory; returns the
 * printable figures and verdicts: RSS within 10 % over the second half of the traffic, and flat at idle.
 */
export async function soak(
  label: string,
  target: SoakProcess,
  traffic: () => Promise<Map<number | string, number>>,
): Promise<{ lines: string[]; met: boolean }> {
  const startedAt = performance.now();
  let answers = new Map<number | string, number>();
  const busy = await sampleWhile(
    target,
    startedAt,
    traffic().then((counts) => (answers = counts)),
  );
  const idle = await sampleWhile(target, startedAt, sleep(IDLE_S * 1000));
  const secondHalf = busy.filter((sample) => sample.atS >= TRAFFIC_S / 2);
  const busySpread = rise(secondHalf);
  const idleSpread = rise(idle);
  const idleSlope = slopeMbPerS(idle);
  const trafficMet = busySpread <= SPREAD_LIMIT;
  const idleMet = idleSpread <= SPREAD_LIMIT && idleSlope <= IDLE_SLOPE_LIMIT_MB_PER_S;
  const total = [...answers.values()].reduce((a, b) => a + b, 0);
  const series = (samples: Sample[]) =>
    samples
      .filter((_, index) => index % 3 === 0 || index === samples.length - 1)
      .map((s) => `${s.atS.toFixed(0)}s ${mb(s.memory.rss)} (${mb(s.rssAnon)}+${mb(s.rssFile)}, heap ${mb(s.memory.heapUsed)}/${mb(s.memory.heapTotal)})`)
      .join(', ');
  const last = idle.at(-1)!.memory;
  return {
    met: trafficMet && idleMet,
    lines: [
      `${label}: ${total} requests in ${TRAFFIC_S} s (${(total / TRAFFIC_S).toFixed(0)}/s; ${[...answers].map(([status, n]) => `${status}: ${n}`).join(', ')})`,
      `  RSS MB (anonymous+files) under traffic: ${series(busy)}`,
      `  RSS MB (anonymous+files) at idle:       ${series(idle)}`,
      `  at the end: rss ${mb(last.rss)} MB (anonymous ${mb(idle.at(-1)!.rssAnon)}, files ${mb(idle.at(-1)!.rssFile)}), heap ${mb(last.heapUsed)}/${mb(last.heapTotal)} MB, external ${mb(last.external)} MB, arrayBuffers ${mb(last.arrayBuffers)} MB`,
      `  second half of the traffic: RSS rise ${(busySpread * 100).toFixed(1)} % (target ≤ 10 %: ${trafficMet ? 'met' : 'NOT met'}); ` +
        `idle ${IDLE_S} s: rise ${(idleSpread * 100).toFixed(1)} %, trend ${idleSlope.toFixed(3)} MB/s (target flat, ≤ ${IDLE_SLOPE_LIMIT_MB_PER_S} MB/s: ${idleMet ? 'met' : 'NOT met'})`,
    ],
  };
}

/**
 * The local platform as `npm start` runs it (its data on disk, the default rate limits, in a process of its own),
 * under 24 clients at about 375 requests per second: most answered 429 by the rate limits, as in the field.
 */
export async function soakPlatform(): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'soak-'));
  const key = `sk_live_${randomBase62(40)}`;
  const agentId = '5eed0000-0000-4000-8000-0000000000a1';
  const platform = await startSoakProcess({ kind: 'platform', dataDir, env: { SERVICE_DEMO_API_KEY: key } });
  try {
    const calls = Object.values(platformCalls(platform.url, key, agentId));
    const { lines } = await soak('local platform (npm start, data on disk)', platform, () => drive(calls, { clients: 24, perSecond: 375, seconds: TRAFFIC_S }));
    return lines;
  } finally {
    await platform.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await soakPlatform()) console.log(line);
