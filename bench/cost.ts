import { randomBase62, ROUTES, type QueueName } from '@service/shared';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { FUNCTIONS, type PlatformFunction } from '../cdk/lib/functions';
import { BUILTIN_SKILLS, SKILL_MEMORY_MB } from '../cdk/lib/skills';
import { findRun } from '../lambdas/src/domains/runs/runs';
import { createSubscription } from '../lambdas/src/domains/webhooks/subscriptions';
import type { Invocation, PlatformObserver } from '../lambdas/src/entries/local/observer';
import { startPlatform, type RunningPlatform } from '../lambdas/src/entries/local/platform';
import { createStore } from '../lambdas/src/infra/store/dynamo';
import { AWS_PRICES } from './aws-prices';
import { addContactInstruction } from './contact-instruction';
import { formatBill, formatKnowledgeBill, type MeasuredUsage } from './cost-bill';
import { meterDynamo } from './cost-dynamo-meter';
import { startTimingProxy } from './cost-skill-proxy';
import { startDynaliteProcess } from './dynalite-process';
import { SCIFACT } from './knowledge';
import { measureKnowledgeOnS3 } from './knowledge-aws';
import { startVerifyingReceiver } from './webhooks';

/** What the platform and the skill proxies reported since the last reset. */
export class InvocationLog implements PlatformObserver {
  /** Each with when it ended (performance.now()), so the meter's own waits inside it can be taken out. */
  invocations: (Invocation & { endedAt: number })[] = [];
  skillCalls: { functionId: string; durationMs: number; endedAt: number }[] = [];
  sends: { queue: QueueName; bytes: number }[] = [];
  invoked(invocation: Invocation): void {
    this.invocations.push({ ...invocation, endedAt: performance.now() });
  }
  sent(queue: QueueName, bytes: number): void {
    this.sends.push({ queue, bytes });
  }
  reset(): void {
    this.invocations = [];
    this.skillCalls = [];
    this.sends = [];
  }
}

/**
 * The routes served by streaming Function URLs (no HTTP API route names them): the widget's chat and live stream are
 * the Chat function's URL, the run and conversation streams the RunStream function's (cdk/lib/functions.ts).
 */
const STREAMING_ROUTES: Record<string, string> = {
  [ROUTES.widgetChat]: 'Chat',
  [ROUTES.widgetLive]: 'Chat',
  [ROUTES.conversationStream]: 'RunStream',
  [ROUTES.inboxStream]: 'RunStream',
  [ROUTES.runStream]: 'RunStream',
};

/** Whether an HTTP invocation came through the HTTP API (billed per request) rather than a Function URL. */
export const throughHttpApi = (invocation: Invocation) => invocation.trigger === 'http' && !(invocation.route in STREAMING_ROUTES);

/** The stack's function an invocation reaches: an HTTP API route's, a Function URL's, or the consumer of a queue (cdk/lib/functions.ts). */
export function functionOf(invocation: Invocation): PlatformFunction {
  const streamed = invocation.trigger === 'http' ? STREAMING_ROUTES[invocation.route] : undefined;
  const found = FUNCTIONS.find(({ id, trigger }) =>
    streamed
      ? id === streamed
      : invocation.trigger === 'http'
        ? trigger.kind === 'http' && trigger.routes.some((route) => route.path === invocation.route)
        : trigger.kind === 'queue' && trigger.queue === invocation.queue,
  );
  if (!found)
    throw new Error(
      `cost bench: no function of the stack serves ${invocation.trigger === 'http' ? invocation.route : invocation.queue}; price it before benchmarking this path`,
    );
  return found;
}

const chunks = (bytes: number, chunkBytes: number) => Math.max(1, Math.ceil(bytes / chunkBytes));

/**
 * SQS requests as the event source mapping makes them: each invocation's batch is one ReceiveMessage and, for the
 * messages it did not fail, one DeleteMessageBatch; each send one SendMessage; each by 64 KB chunks of payload.
 */
export function sqsRequests(log: InvocationLog): MeasuredUsage['sqs'] {
  const chunk = AWS_PRICES.sqs.requestChunkBytes;
  const batches = log.invocations.flatMap((invocation) => (invocation.trigger === 'queue' ? [invocation] : []));
  return {
    sends: log.sends.reduce((total, send) => total + chunks(send.bytes, chunk), 0),
    receives: batches.reduce(
      (total, batch) =>
        total +
        chunks(
          batch.messageBytes.reduce((a, b) => a + b, 0),
          chunk,
        ),
      0,
    ),
    deletes: batches.filter((batch) => batch.failedMessages < batch.messageBytes.length).length,
  };
}

/** Milliseconds of the spans `waits` that fall within [start, end]. */
const overlapMs = (start: number, end: number, waits: readonly [number, number][]) =>
  waits.reduce((total, [from, to]) => total + Math.max(0, Math.min(end, to) - Math.max(start, from)), 0);

/**
 * Each function's invocations and wall times, less the meter's own item reads they waited on (every invocation
 * under way during a read waited for it: a SkillApi call, the skill that made it and the run that called the skill).
 */
export function lambdaUsage(log: InvocationLog, meterWaits: readonly [number, number][]): MeasuredUsage['lambda'] {
  const byFunction = new Map<string, { functionId: string; memoryMb: number; durationsMs: number[] }>();
  const add = (functionId: string, memoryMb: number, call: { durationMs: number; endedAt: number }) => {
    let entry = byFunction.get(functionId);
    if (!entry) byFunction.set(functionId, (entry = { functionId, memoryMb, durationsMs: [] }));
    entry.durationsMs.push(call.durationMs - overlapMs(call.endedAt - call.durationMs, call.endedAt, meterWaits));
  };
  for (const invocation of log.invocations) {
    const fn = functionOf(invocation);
    add(fn.id, fn.memoryMb, invocation);
  }
  for (const call of log.skillCalls) add(call.functionId, SKILL_MEMORY_MB, call);
  return [...byFunction.values()];
}

/** Routes every built-in skill through a timing proxy, each request one invocation of that skill's function. */
export async function proxySkills(platform: RunningPlatform, log: InvocationLog): Promise<() => Promise<void>> {
  const builtins = Object.entries(platform.skillHost.builtins);
  const proxies = await Promise.all(
    builtins.map(async ([code, endpoint]) => {
      const functionId = BUILTIN_SKILLS.find((skill) => skill.code === code)?.id ?? code;
      const target = new URL(endpoint.mcpUrl);
      const proxy = await startTimingProxy(target.origin, (durationMs) => log.skillCalls.push({ functionId, durationMs, endedAt: performance.now() }));
      return { code, endpoint: { ...endpoint, mcpUrl: `${proxy.url}${target.pathname}` }, proxy };
    }),
  );
  const proxied = { ...platform.skillHost, builtins: Object.fromEntries(proxies.map(({ code, endpoint }) => [code, endpoint])) };
  platform.deps.skillHost = () => proxied;
  return async () => void (await Promise.all(proxies.map(({ proxy }) => proxy.close())));
}

/** A person's name the offline model recognises (two capitalised words; digits are not a name), one per index. */
async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`cost bench: ${what} did not happen within ${timeoutMs} ms`);
    await sleep(5);
  }
}

/**
 * The AWS bill of 1,000 commands, from what `count` commands did on the local platform: each POST agents/command over
 * HTTP (API key) runs the demo agent, whose offline model calls the contacts skill once, and the run's completion is
 * delivered, signed, to a loopback webhook receiver. One command at a time, each to its delivery and an empty queue,
 * so each invocation's wall time is its own (as in its own Lambda sandbox), not a share of a busy event loop.
 * Counted: DynamoDB request units as the store reports them (cost-dynamo-meter.ts), SQS requests (sends as the
 * platform makes them, receives and deletes as the event source mapping would), API Gateway requests and Lambda
 * invocations with their wall time (the local platform's observer hook; the skills' through a timing proxy).
 */
async function commandsBill(count: number, warmUp: number): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const log = new InvocationLog();
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({
    port: 0,
    dynamoEndpoint: dynalite.endpoint,
    observer: log,
    env: { SERVICE_DEMO_API_KEY: key, WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  const receiver = await startVerifyingReceiver();
  const closeProxies = await proxySkills(platform, log);
  try {
    const { config } = platform.deps;
    const storeOptions = { tablePrefix: config.tablePrefix, region: config.region, endpoint: dynalite.endpoint };
    const meter = meterDynamo(platform.deps.store, storeOptions);
    // The bench's own reads (run status, tokens) go through a client of its own, outside the meter.
    const unmetered = { ...platform.deps, store: createStore(storeOptions) };
    const subscription = await createSubscription(platform.deps, platform.demo.workspaceId, { url: receiver.url, events: ['agent.command.completed'] });
    receiver.useSecret(subscription.signingSecret);

    const drained = async () => (await platform.queue.depth('runs')) + (await platform.queue.depth('webhooks')) === 0;
    const runIds: string[] = [];
    const command = async (index: number) => {
      const response = await fetch(`${platform.apiBaseUrl}/agents/command/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-api-key': key },
        body: JSON.stringify({ agent_id: platform.demo.agentId, instruction: addContactInstruction(index), autonomy: 'full' }),
      });
      if (response.status !== 202) throw new Error(`agents/command answered ${response.status}: ${await response.text()}`);
      runIds.push(((await response.json()) as { data: { run: { run_id: string } } }).data.run.run_id);
      await until(async () => receiver.arrivals.size >= runIds.length, 'the webhook delivery');
      await until(drained, 'the queues draining');
    };

    for (let index = 0; index < warmUp; index += 1) await command(index);
    log.reset();
    meter.reset();
    const measured = runIds.length;
    for (let index = 0; index < count; index += 1) await command(warmUp + index);

    const runs = await Promise.all(runIds.slice(measured).map((runId) => findRun(unmetered, runId)));
    const unfinished = runs.filter((run) => run?.status !== 'completed');
    if (unfinished.length > 0) throw new Error(`cost bench: ${unfinished.length} runs did not complete (${unfinished[0]?.status}: ${unfinished[0]?.error})`);
    receiver.assertClean();
    const toolCalls = log.invocations.filter((invocation) => invocation.trigger === 'http' && functionOf(invocation).id === 'SkillApi').length;
    if (toolCalls < count) throw new Error(`cost bench: ${toolCalls} skill API calls for ${count} commands; each command should add a contact`);

    const usage: MeasuredUsage = {
      commands: count,
      lambda: lambdaUsage(log, meter.imageReads()),
      apiGatewayRequests: log.invocations.reduce(
        (total, invocation) => total + (invocation.trigger === 'http' ? chunks(invocation.requestBytes, AWS_PRICES.apiGateway.requestChunkBytes) : 0),
        0,
      ),
      sqs: sqsRequests(log),
      dynamo: meter.usage(),
    };
    const tokens = runs.reduce(
      (total, run) => ({ input: total.input + (run?.usage.inputTokens ?? 0), output: total.output + (run?.usage.outputTokens ?? 0) }),
      { input: 0, output: 0 },
    );
    const perThousand = (value: number) => Math.round((value * 1000) / count).toLocaleString('en-US');
    return [
      `measured over ${count} commands (after ${warmUp} to warm up), each with its run completed, one contacts tool call and one verified webhook delivery; scaled to 1,000; ${AWS_PRICES.region} list prices of ${AWS_PRICES.takenOn} (bench/aws-prices.ts)`,
      ...formatBill(usage),
      `beside the bill, model tokens per 1,000 commands: ${perThousand(tokens.input)} input, ${perThousand(tokens.output)} output (the offline model's count; on Bedrock they are billed at the model's own price)`,
      `assumed: each batch an invocation gets is one ReceiveMessage of the event source mapping and is deleted in one DeleteMessageBatch (the local queue hands out the batches the mapping would, as many messages as wait up to its batch size, ${FUNCTIONS.flatMap((fn) => (fn.trigger.kind === 'queue' ? [`${fn.trigger.batchSize} for the ${fn.id}`] : [])).join(' and ')}); the mapping's long polling of an idle queue is a fixed cost, not per command: about 5 pollers x 3 receives a minute = 648,000 requests a month a queue, $${((648_000 * AWS_PRICES.sqs.perMillionStandardRequests) / 1e6).toFixed(2)} a month each`,
      `assumed: durations are warm invocations as this machine ran the handlers (cold starts not included), with dynalite in its own process in place of DynamoDB, less the meter's own item reads around index writes (${(meter.imageReads().reduce((total, [from, to]) => total + to - from, 0) / count).toFixed(1)} ms per command). Not counted: CloudWatch Logs, data transfer out (about 1 KB per webhook), Secrets Manager (read once per container); the flow crosses no CloudFront distribution (the REST API is the HTTP API's own endpoint)`,
    ];
  } finally {
    await closeProxies();
    await receiver.close();
    await platform.stop();
    await dynalite.stop();
  }
}

/**
 * The bill: 1,000 commands (above), then knowledge's lines, 1,000 questions and the index of 10,000 pages kept a month,
 * measured on LanceDB on the bundled platform's S3 (bench/knowledge-aws.ts).
 */
export async function benchCost(count = 200, warmUp = 10): Promise<string[]> {
  const commands = await commandsBill(count, warmUp);
  if (!existsSync(SCIFACT)) return [...commands, 'knowledge: skipped, ../shared/corpora/scifact is not beside the repository'];
  const { usage } = await measureKnowledgeOnS3();
  return [...commands, ...formatKnowledgeBill(usage)];
}
