import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { newRunId } from '@service/shared';
import { verify } from '@service/webhooks';
import { startPlatform, type RunningPlatform } from '../lambdas/src/entries/local/platform';
import { emitEvent } from '../lambdas/src/domains/webhooks/emit';
import { createWebhookSender } from '../lambdas/src/domains/webhooks/send';
import { createSubscription } from '../lambdas/src/domains/webhooks/subscriptions';
import { startDynaliteProcess } from './dynalite-process';
import { figuresOf, formatFigures, measure, type Figures } from './measure';

const TARGET_PER_SECOND = 1_000;

/**
 * A loopback receiver that verifies every signature with @service/webhooks and counts each event id's arrivals:
 * a delivery that fails verification or arrives twice makes the bench fail.
 */
export async function startVerifyingReceiver() {
  let secret = '';
  const arrivals = new Map<string, number>();
  const problems: string[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const event = verify(Buffer.concat(chunks), req.headers['x-service-signature'] as string | undefined, secret);
        if (arrivals.has(event.id)) problems.push(`${event.id} arrived twice`);
        arrivals.set(event.id, performance.now());
        res.writeHead(204).end();
      } catch (error) {
        problems.push(`a delivery failed verification: ${String(error)}`);
        res.writeHead(400).end();
      }
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    /** The subscription's signing secret, known once it is created with this receiver's URL. */
    useSecret: (value: string) => (secret = value),
    arrivals,
    /** Throws when any delivery failed verification or arrived twice. */
    assertClean() {
      if (problems.length > 0) throw new Error(`webhooks bench: ${problems.length} bad deliveries, e.g. ${problems.slice(0, 3).join('; ')}`);
    },
    async until(ids: Iterable<string>, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      const missing = [...ids].filter((id) => !arrivals.has(id));
      while (missing.length > 0) {
        while (missing.length > 0 && arrivals.has(missing.at(-1)!)) missing.pop();
        if (missing.length === 0) break;
        if (Date.now() > deadline)
          throw new Error(`webhooks bench: ${missing.filter((id) => !arrivals.has(id)).length} deliveries never arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

type Receiver = Awaited<ReturnType<typeof startVerifyingReceiver>>;

/** DynamoDB calls the platform's store client makes, by command and table (an SDK middleware on its client). */
function countStoreCalls(platform: RunningPlatform) {
  const counts = new Map<string, number>();
  platform.deps.store.raw.middlewareStack.add(
    (next, context) => (args) => {
      const input = args.input as { TableName?: string; RequestItems?: Record<string, unknown> };
      const table = input.TableName ?? Object.keys(input.RequestItems ?? {}).join('+');
      const key = `${(context.commandName ?? 'Unknown').replace(/Command$/, '')} ${table.replace(/^.*?\./, '')}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchStoreCallCounter' },
  );
  return {
    /** Calls since the last take, by command and table. */
    take() {
      const taken = new Map(counts);
      counts.clear();
      return taken;
    },
  };
}

const perDelivery = (calls: Map<string, number>, deliveries: number) =>
  [...calls]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([call, count]) => `${call} ${(count / deliveries).toFixed(2)}`)
    .join(', ');
const total = (calls: Map<string, number>) => [...calls.values()].reduce((sum, count) => sum + count, 0);

interface Bench {
  platform: RunningPlatform;
  receiver: Receiver;
  workspaceId: string;
}

const eventData = (platform: RunningPlatform) => ({
  run_id: newRunId(),
  agent_id: platform.demo.agentId,
  agent_name: 'Support',
  status: 'completed',
  instruction: 'bench',
  result_text: 'ok',
  steps_count: 3,
});

/** Emits `count` events, 50 at a time; answers when each was emitted, by event id. */
async function emitMany({ platform, workspaceId }: Bench, count: number): Promise<Map<string, number>> {
  const emittedAt = new Map<string, number>();
  await measure('emit', count, 50, async () => {
    const at = performance.now();
    const { eventId } = await emitEvent(platform.deps, workspaceId, 'agent.command.completed', eventData(platform));
    emittedAt.set(eventId, at);
  });
  return emittedAt;
}

/** Deliveries per second from the first emit to the last arrival, latency of each from its emit to its arrival. */
function deliveryFigures(label: string, receiver: Receiver, emittedAt: Map<string, number>, startedAt: number): Figures {
  const arrivals = [...emittedAt].map(([id, at]) => ({ at, arrived: receiver.arrivals.get(id)! }));
  const elapsedS = (Math.max(...arrivals.map((a) => a.arrived)) - startedAt) / 1000;
  return figuresOf(
    label,
    arrivals.map((a) => a.arrived - Math.max(a.at, startedAt)),
    elapsedS,
  );
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

/** CPU time per delivery in the platform's process and in the store's, from now until the answer's call. */
async function cpuMeter(storeCpu: () => Promise<NodeJS.CpuUsage>, count: number): Promise<() => Promise<{ platformMs: number; storeMs: number }>> {
  const [platformBefore, storeBefore] = [process.cpuUsage(), await storeCpu()];
  return async () => ({ platformMs: cpuMs(process.cpuUsage(platformBefore)) / count, storeMs: (cpuMs(await storeCpu()) - cpuMs(storeBefore)) / count });
}

/** End to end: emit (first attempts on durable queue messages) while the queue's consumer delivers; with its CPU time per delivery. */
async function endToEnd(bench: Bench, count: number, storeCpu: () => Promise<NodeJS.CpuUsage>) {
  const meter = await cpuMeter(storeCpu, count);
  const startedAt = performance.now();
  const emittedAt = await emitMany(bench, count);
  await bench.receiver.until(emittedAt.keys(), 300_000);
  return { figures: deliveryFigures('end to end: emit -> queue -> deliverer -> receiver', bench.receiver, emittedAt, startedAt), cpu: await meter() };
}

/**
 * The queue and deliverer alone: the events are emitted with the consumer stopped, then it drains them. Answers the
 * figures, the store calls of emitting and of draining, and the CPU time each delivery took in the platform's process
 * and in the store's (robust where throughput is not: on a machine shared with other work, time waiting for a core
 * counts in throughput and latency but not in CPU time).
 */
async function drain(bench: Bench, count: number, calls: ReturnType<typeof countStoreCalls>, storeCpu: () => Promise<NodeJS.CpuUsage>) {
  await bench.platform.queue.stop();
  calls.take();
  const emittedAt = await emitMany(bench, count);
  const emitCalls = calls.take();
  const meter = await cpuMeter(storeCpu, count);
  const startedAt = performance.now();
  bench.platform.queue.start();
  await bench.receiver.until(emittedAt.keys(), 300_000);
  return {
    figures: deliveryFigures('queue filled first, then drained by the deliverer', bench.receiver, emittedAt, startedAt),
    emitCalls,
    drainCalls: calls.take(),
    cpu: await meter(),
  };
}

/** The sender alone (sign + guarded POST), 16 at a time: the baseline the durable path is compared with. */
async function senderAlone({ receiver }: Bench, count: number, signingSecret: string): Promise<Figures> {
  const sender = createWebhookSender({ allowLocal: true });
  const round = newRunId();
  try {
    return await measure('sender alone (sign + guarded POST, 16 in flight)', count, 16, async (index) => {
      const id = `evt_s${round.replace(/[^0-9A-Za-z]/g, '')}${index}`;
      const payload = JSON.stringify({ id, event: 'agent.command.completed', created_at: new Date().toISOString(), data: {} });
      const result = await sender.send({ url: receiver.url, id, event: 'agent.command.completed', payload, signingSecret, signedAt: new Date() });
      if (!result.ok) throw new Error(`bench delivery failed: ${result.error}`);
    });
  } finally {
    sender.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Signed webhook deliveries per second to a loopback receiver that verifies every signature and counts each
 * delivery's arrivals, on the local platform with its store in a process of its own (as DynamoDB is a service beside
 * the functions, see dynalite-process.ts). Each round measures, in turn: the sender alone (the baseline), end to end
 * (emitting while the consumer delivers), and the queue filled first then drained. Then one delivery at a time.
 * The platform's queue is the one `npm start` runs (startPlatform: the webhooks batch size of the stack's event source
 * mapping). Prints each round, the medians with their ratio to the baseline and the target, the CPU time per delivery
 * end to end and drained in each process, and the store calls per delivery.
 */
export async function benchWebhooks(options: { deliveries?: number; rounds?: number } = {}): Promise<string[]> {
  const count = options.deliveries ?? 2_000;
  const rounds = options.rounds ?? 3;
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({ dynamoEndpoint: dynalite.endpoint, env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.001' } });
  const lines: string[] = [];
  try {
    const workspaceId = platform.demo.workspaceId;
    const receiver = await startVerifyingReceiver();
    const bench: Bench = { platform, receiver, workspaceId };
    const calls = countStoreCalls(platform);
    try {
      const subscription = await createSubscription(platform.deps, workspaceId, { url: receiver.url, events: ['agent.command.completed'] });
      receiver.useSecret(subscription.signingSecret);
      const results = { baseline: [] as Figures[], endToEnd: [] as Figures[], drained: [] as Figures[] };
      let lastDrain: Awaited<ReturnType<typeof drain>> | undefined;
      let lastEndToEnd: Awaited<ReturnType<typeof endToEnd>> | undefined;
      for (let round = 1; round <= rounds; round += 1) {
        results.baseline.push(await senderAlone(bench, count, subscription.signingSecret));
        lastEndToEnd = await endToEnd(bench, count, dynalite.cpuUsage);
        results.endToEnd.push(lastEndToEnd.figures);
        lastDrain = await drain(bench, count, calls, dynalite.cpuUsage);
        results.drained.push(lastDrain.figures);
        lines.push(`round ${round}:`, ...[results.baseline, results.endToEnd, results.drained].map((side) => `  ${formatFigures(side.at(-1)!)}`));
      }

      // One at a time: the latency of a single delivery when nothing queues in front of it.
      const single: number[] = [];
      for (let i = 0; i < 30; i += 1) {
        const at = performance.now();
        const { eventId } = await emitEvent(platform.deps, workspaceId, 'agent.command.completed', eventData(platform));
        await receiver.until([eventId], 30_000);
        single.push(performance.now() - at);
      }
      lines.push(formatFigures(figuresOf('one at a time, emit to arrival', single, single.reduce((a, b) => a + b, 0) / 1000)));
      receiver.assertClean();

      const baseline = median(results.baseline.map((f) => f.perSecond));
      for (const [name, side] of [
        ['end to end', results.endToEnd],
        ['queue drained', results.drained],
      ] as const) {
        const perSecond = median(side.map((f) => f.perSecond));
        const verdict = perSecond >= TARGET_PER_SECOND ? 'met' : 'NOT met';
        lines.push(
          `webhooks ${name}: ${perSecond.toFixed(0)}/s (median of ${rounds} rounds, p50 ${median(side.map((f) => f.p50Ms)).toFixed(0)} ms), ` +
            `baseline sender alone ${baseline.toFixed(0)}/s, ratio ${(perSecond / baseline).toFixed(2)}x, target ${TARGET_PER_SECOND}/s: ${verdict}`,
        );
      }
      const { emitCalls, drainCalls } = lastDrain!;
      const verdict = (perSecond: number) => `target ${TARGET_PER_SECOND}/s: ${perSecond >= TARGET_PER_SECOND ? 'met' : 'NOT met'}`;
      const cpuLine = (name: string, cpu: { platformMs: number; storeMs: number }) => {
        const ceiling = 1000 / Math.max(cpu.platformMs, cpu.storeMs);
        return `CPU per delivery ${name} (last round): ${cpu.platformMs.toFixed(2)} ms in the platform's process, ${cpu.storeMs.toFixed(2)} ms in the store's: with a core each to themselves, at most ${ceiling.toFixed(0)}/s (${verdict(ceiling)})`;
      };
      lines.push(
        cpuLine('end to end', lastEndToEnd!.cpu),
        cpuLine('drained', lastDrain!.cpu),
        `store calls per delivery, emit: ${(total(emitCalls) / count).toFixed(2)} (${perDelivery(emitCalls, count)})`,
        `store calls per delivery, queue and deliverer: ${(total(drainCalls) / count).toFixed(2)} (${perDelivery(drainCalls, count)}; localQueue calls stand for SQS requests)`,
        `  all ${count * rounds * 3 + 30} deliveries verified with @service/webhooks and arrived exactly once`,
      );
    } finally {
      await receiver.close();
    }
  } finally {
    await platform.stop();
    await dynalite.stop();
  }
  return lines;
}
