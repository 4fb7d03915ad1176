import { randomBase62, type QueueName } from '@service/shared';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { availableParallelism } from 'node:os';
import type { ClientRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { listRecords } from '../lambdas/src/domains/records/records';
import { enqueueNewRun, findRun, type StoredRun } from '../lambdas/src/domains/runs/runs';
import type { Invocation, PlatformObserver } from '../lambdas/src/entries/local/observer';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import type { Deps } from '../lambdas/src/infra/deps';
import { createStore } from '../lambdas/src/infra/store/dynamo';
import { addContactInstruction, BENCH_PERSON_PREFIX } from './contact-instruction';
import { meterDynamo } from './cost-dynamo-meter';
import { startDynaliteProcess } from './dynalite-process';
import { formatFigures, measure, type Figures } from './measure';

const TARGET = { perSecond: 100, p50Ms: 20 };
const TOOL_CAPABILITY = 'contacts.create';

/** Queue requests as SQS would count them: each send, and for each batch a consumer took, a receive and a delete. */
export class QueueTally implements PlatformObserver {
  private readonly counts = new Map<string, number>();
  /** Messages each queue's consumer handled (whether counting or not), so the bench can wait without reading the store. */
  private readonly handled = new Map<string, number>();
  counting = false;
  private add(label: string): void {
    if (this.counting) this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
  }
  invoked(invocation: Invocation): void {
    if (invocation.trigger !== 'queue') return;
    this.handled.set(invocation.queue, this.handledOf(invocation.queue) + invocation.messageBytes.length - invocation.failedMessages);
    this.add(`ReceiveMessage ${invocation.queue}`);
    if (invocation.failedMessages < invocation.messageBytes.length) this.add(`DeleteMessage ${invocation.queue}`);
  }
  sent(queue: QueueName): void {
    this.add(`SendMessage ${queue}`);
  }
  operations(): ReadonlyMap<string, number> {
    return this.counts;
  }
  handledOf(queue: QueueName): number {
    return this.handled.get(queue) ?? 0;
  }
  /** Waits until the consumer of `queue` has handled `total` messages in all. */
  async untilHandled(queue: QueueName, total: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.handledOf(queue) < total && Date.now() < deadline) await sleep(10);
  }
  /** Waits until the consumer reported `batches` invocations of `queue` (it reports one after its run settled). */
  async untilReceived(queue: QueueName, batches: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while ((this.counts.get(`ReceiveMessage ${queue}`) ?? 0) < batches) {
      if (Date.now() > deadline) throw new Error(`runner bench: the ${queue} consumer reported fewer than ${batches} batches`);
      await sleep(5);
    }
  }
}

/**
 * The baseline: a bare consistent GetItem of a run item through the platform's own store client, one at a time, with
 * the CPU time each side spends per call; a run is a sequence of such calls beside its model turns and its tool call.
 */
async function bareStoreRead(deps: Deps, runId: string, storeCpu: () => Promise<NodeJS.CpuUsage>) {
  const count = 500;
  const [before, storeBefore] = [process.cpuUsage(), await storeCpu()];
  const figures = await measure('baseline: a bare GetItem of a run (same client, same store)', count, 1, () => findRun(deps, runId).then(() => undefined));
  const [cpu, storeAfter] = [process.cpuUsage(before), await storeCpu()];
  return {
    figures,
    clientCpuMs: (cpu.user + cpu.system) / 1000 / count,
    storeCpuMs: (storeAfter.user + storeAfter.system - storeBefore.user - storeBefore.system) / 1000 / count,
  };
}

const runSpanMs = (run: StoredRun) => Date.parse(run.completedAt!) - Date.parse(run.startedAt!);

function figuresOf(label: string, runs: readonly StoredRun[], perSecond: number): Figures {
  const durations = runs.map(runSpanMs).sort((a, b) => a - b);
  return {
    label,
    count: runs.length,
    perSecond,
    p50Ms: durations[Math.floor(runs.length * 0.5)]!,
    p99Ms: durations[Math.min(runs.length - 1, Math.floor(runs.length * 0.99))]!,
  };
}

/**
 * HTTP requests the process makes to anything but the store, by method and path: the runner's to the skills
 * (node:http) and the skills' serviceApi calls back to the platform (fetch, over undici).
 */
function countHttpRequests(storeEndpoint: string): { operations: ReadonlyMap<string, number>; stop(): void } {
  const operations = new Map<string, number>();
  const storeHost = new URL(storeEndpoint).host;
  const count = (method: string, path: string) => {
    const label = `${method} ${path.replace(/^\/(?:en|tr)\/api\/v1\//, '/api/')}`;
    operations.set(label, (operations.get(label) ?? 0) + 1);
  };
  const onNodeRequest = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    if (request.getHeader('host') !== storeHost) count(request.method, request.path);
  };
  const onFetch = (message: unknown) => {
    const { request } = message as { request: { method: string; path: string } };
    count(request.method, request.path);
  };
  subscribe('http.client.request.start', onNodeRequest);
  subscribe('undici:request:create', onFetch);
  return {
    operations,
    stop: () => {
      unsubscribe('http.client.request.start', onNodeRequest);
      unsubscribe('undici:request:create', onFetch);
    },
  };
}

const settled = (run: StoredRun | undefined) => run !== undefined && ['completed', 'failed'].includes(run.status) && run.followUpsDone === true;

/** Waits until every run settled (its usage and webhook done too), reading only the oldest unsettled one per tick so the bench barely loads the store. */
export async function settleAll(deps: Deps, runIds: readonly string[]): Promise<StoredRun[]> {
  const runs: StoredRun[] = [];
  const deadline = Date.now() + 120_000;
  while (runs.length < runIds.length) {
    const run = await findRun(deps, runIds[runs.length]!);
    if (settled(run)) runs.push(run!);
    else if (Date.now() > deadline) throw new Error(`runner bench: run ${runIds[runs.length]} did not settle (${run?.status})`);
    else await sleep(5);
  }
  return runs;
}

async function countBenchContacts(deps: Deps, workspaceId: string): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await listRecords<{ name: string }>(deps, workspaceId, 'contact', { limit: 100, ...(cursor ? { cursor } : {}) });
    count += page.items.filter((contact) => contact.name.startsWith(BENCH_PERSON_PREFIX)).length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return count;
}

/** Refuses figures unless every run completed having made its one tool call: one action each, and one contact per run. */
function checkOneToolCallEach(runs: readonly StoredRun[], contactsAdded: number): void {
  const wrong = runs.find(
    (run) => run.status !== 'completed' || JSON.stringify((run.output as { actions?: unknown } | undefined)?.actions) !== JSON.stringify([TOOL_CAPABILITY]),
  );
  if (wrong)
    throw new Error(`runner bench: run ${wrong.runId} did not make its one ${TOOL_CAPABILITY} call (${wrong.status}: ${wrong.error ?? wrong.resultText})`);
  if (contactsAdded !== runs.length) throw new Error(`runner bench: ${runs.length} runs added ${contactsAdded} contacts; each run must add exactly one`);
}

const perRun = (operations: ReadonlyMap<string, number>, runs: number) =>
  [...operations]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, total]) => `${label} ${Number.isInteger(total / runs) ? total / runs : (total / runs).toFixed(2)}`)
    .join(', ');
const sum = (operations: ReadonlyMap<string, number>) => [...operations.values()].reduce((a, b) => a + b, 0);

/**
 * Runs per second through the runner with the offline model, each run adding one contact through the contacts skill
 * (one MCP tools/call): queue `count` runs, start the consumer, time each to completion. Then `metered` more, one at a
 * time, with the store and queue requests of each counted (from the API's enqueue to its usage and webhook follow-ups).
 */
export async function benchRunner(count = 300, alone = 50, metered = 20, warmUpCount = 100): Promise<string[]> {
  const queueTally = new QueueTally();
  // The store in a process of its own, as DynamoDB is a service beside the runner (see dynalite-process.ts).
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({
    port: 0,
    dynamoEndpoint: dynalite.endpoint,
    observer: queueTally,
    env: { SERVICE_DEMO_API_KEY: `sk_live_${randomBase62(40)}` },
  });
  try {
    await platform.queue.stop();
    const { deps } = platform;
    const { workspaceId, agentId } = platform.demo;
    const storeOptions = { tablePrefix: deps.config.tablePrefix, region: deps.config.region, endpoint: deps.config.dynamoEndpoint! };
    // The bench's own reads go through a client of its own, outside the meter.
    const unmetered: Deps = { ...deps, store: createStore(storeOptions) };
    const enqueue = (index: number) => enqueueNewRun(deps, { workspaceId, agentId, instruction: addContactInstruction(index), autonomy: 'full' });
    const contactsBefore = await countBenchContacts(unmetered, workspaceId);
    // One run at a time, waited for on the consumer's report and then read once: polling the store for it meanwhile
    // would load the process and the store whose run it times.
    const runAlone = async (index: number) => {
      const handled = queueTally.handledOf('runs');
      const { runId } = await enqueue(index);
      await queueTally.untilHandled('runs', handled + 1, 30_000);
      return settleAll(unmetered, [runId]);
    };

    /** `total` runs queued first, then handed out by the started queue: the runs, the seconds and the CPU they took. */
    const throughputPass = async (first: number, total: number) => {
      await platform.queue.stop();
      const runIds: string[] = [];
      for (let index = first; index < first + total; index += 1) runIds.push((await enqueue(index)).runId);
      const started = Date.now();
      const [cpuBefore, storeCpuBefore] = [process.cpuUsage(), await dynalite.cpuUsage()];
      const handledBefore = queueTally.handledOf('runs');
      platform.queue.start();
      // Waits on the consumer's own reports, then reads the runs once: polling the store meanwhile would load it.
      await queueTally.untilHandled('runs', handledBefore + total, 120_000);
      const runs = await settleAll(unmetered, runIds);
      const elapsedS = (Date.now() - started) / 1000;
      const [cpu, storeCpuAfter] = [process.cpuUsage(cpuBefore), await dynalite.cpuUsage()];
      return { runs, elapsedS, cpu, storeCpuMs: (storeCpuAfter.user + storeCpuAfter.system - storeCpuBefore.user - storeCpuBefore.system) / 1000 };
    };
    // A first pass, not counted, warms the process (its compiled code, its connections) as a container's first runs do.
    const warmUp = await throughputPass(0, warmUpCount);
    const { runs, elapsedS, cpu, storeCpuMs } = await throughputPass(warmUpCount, count);
    const runIds = runs.map((run) => run.runId);
    checkOneToolCallEach([...warmUp.runs, ...runs], (await countBenchContacts(unmetered, workspaceId)) - contactsBefore);

    // The latency of one run alone, as a single command sees it (in the throughput pass 16 runs share the consumer).
    const aloneRuns: StoredRun[] = [];
    const firstAlone = warmUpCount + count;
    for (let index = firstAlone; index < firstAlone + alone; index += 1) aloneRuns.push(...(await runAlone(index)));

    // Before the meter is on: the baseline's reads are not the runs'.
    const bare = await bareStoreRead(deps, runIds[0]!, dynalite.cpuUsage);
    const meter = meterDynamo(deps.store, storeOptions);
    const http = countHttpRequests(storeOptions.endpoint);
    queueTally.counting = true;
    const meteredRuns: StoredRun[] = [];
    for (let index = firstAlone + alone; index < firstAlone + alone + metered; index += 1) {
      meteredRuns.push(...(await runAlone(index)));
      await queueTally.untilReceived('runs', meteredRuns.length);
    }
    queueTally.counting = false;
    http.stop();
    checkOneToolCallEach([...warmUp.runs, ...runs, ...aloneRuns, ...meteredRuns], (await countBenchContacts(unmetered, workspaceId)) - contactsBefore);

    const figures = figuresOf('runs through the runner (offline model, 1 tool call)', runs, count / elapsedS);
    const aloneFigures = figuresOf(
      'one run at a time (the same runs, unloaded)',
      aloneRuns,
      aloneRuns.length / (aloneRuns.reduce((total, run) => total + runSpanMs(run), 0) / 1000),
    );
    const platformCpuMs = (cpu.user + cpu.system) / 1000 / count;
    const met = figures.perSecond >= TARGET.perSecond && aloneFigures.p50Ms <= TARGET.p50Ms;
    const storeRequests = sum(meter.operations()) / metered;
    return [
      formatFigures(bare.figures),
      formatFigures(figures),
      formatFigures(aloneFigures),
      `  a run alone takes ${(aloneFigures.p50Ms / bare.figures.p50Ms).toFixed(1)}x the bare GetItem by p50`,
      `  target: at least ${TARGET.perSecond} runs/s, and p50 of a run alone at most ${TARGET.p50Ms} ms: ${met ? 'met' : 'NOT met'}`,
      `  (throughput = ${count} queued runs, after ${warmUpCount} not counted, to their usage and webhook follow-ups, as the local queue hands them out, 16 batches of up to 5 at a time as the Runner's event source mapping batches them; latency = one run from start to completion inside the runner; every run made exactly one ${TOOL_CAPABILITY} call)`,
      `  CPU per run: ${platformCpuMs.toFixed(1)} ms in the platform's process (the runner, the API and the built-in skills), ${(storeCpuMs / count).toFixed(1)} ms in the store's; on a busy machine these are the steadier figures`,
      `  so ${availableParallelism()} cores give at most ${Math.round((availableParallelism() * 1000) / (platformCpuMs + storeCpuMs / count))} runs/s, all of them busy with the two processes and nothing else (the platform's process is one event loop besides: its GC and crypto threads aside, it uses one core)`,
      `  store requests per run: ${storeRequests.toFixed(1)} (${perRun(meter.operations(), metered)})`,
      `  a bare GetItem costs ${bare.clientCpuMs.toFixed(2)} ms of CPU in the client (the AWS SDK) and ${bare.storeCpuMs.toFixed(2)} ms in the store: the store requests alone come to about ${(storeRequests * bare.clientCpuMs).toFixed(1)} ms and ${(storeRequests * bare.storeCpuMs).toFixed(1)} ms of each run's CPU (local queue requests aside)`,
      `  queue requests per run: ${(sum(queueTally.operations()) / metered).toFixed(1)} (${perRun(queueTally.operations(), metered)})`,
      `  HTTP requests per run, store aside: ${(sum(http.operations) / metered).toFixed(1)} (${perRun(http.operations, metered)})`,
      `  (counted over ${metered} runs one at a time, from the API's enqueue to the follow-ups, the skill's serviceApi callback included)`,
    ];
  } finally {
    await platform.stop();
    await dynalite.stop();
  }
}
