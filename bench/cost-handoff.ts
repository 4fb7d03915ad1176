import { randomBase62, type TableName } from '@service/shared';
import { setTimeout as sleep } from 'node:timers/promises';
import { FUNCTIONS } from '../cdk/lib/functions';
import { startPlatform, type RunningPlatform } from '../lambdas/src/entries/local/platform';
import { formatBill, type MeasuredUsage } from './cost-bill';
import type { TableUsage } from './cost-dynamo-meter';
import { meterDynamo } from './cost-dynamo-meter';
import { InvocationLog, lambdaUsage, sqsRequests, throughHttpApi } from './cost';
import { startDynaliteProcess } from './dynalite-process';
import { say, visitorAddress, type Visitor } from './inbox';

/** Assumed: how long people handle a conversation (from the handoff to its close), the streams open all that time. */
const HANDLED_MINUTES = 10;
const VISITOR_STREAM_SECONDS = 100;
const TEAMMATE_STREAM_SECONDS = 840;
const QUIET_SECONDS = 10;
const STREAMS_IN_AWS = 2;
const memoryOf = (id: string) => FUNCTIONS.find((fn) => fn.id === id)!.memoryMb;

async function rest(platform: RunningPlatform, key: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${platform.apiBaseUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': key },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`cost bench: ${path} answered ${response.status}: ${await response.text()}`);
}

/** One handed-off conversation of 10 messages: the ask and the agent's answer, 4 visitor messages and 4 replies, closed. */
async function handedOff(platform: RunningPlatform, key: string, ownerId: string, index: number): Promise<void> {
  const visitor: Visitor = { conversationId: crypto.randomUUID(), visitorId: crypto.randomUUID(), address: visitorAddress(index), transcript: [] };
  await say(platform, visitor, 'I want to talk to a human');
  await rest(platform, key, 'conversations/assign', { conversation_id: visitor.conversationId, user_id: ownerId });
  for (let turn = 0; turn < 4; turn += 1) {
    await say(platform, visitor, `My question number ${turn}`);
    await rest(platform, key, 'conversations/reply', { conversation_id: visitor.conversationId, text: `Answer number ${turn}` });
  }
  await rest(platform, key, 'conversations/close', { conversation_id: visitor.conversationId });
}

/**
 * The read units a quiet conversation's poll costs a second, measured with a visitor's and a teammate's stream open:
 * locally the two share one poll; in AWS each stream is its own Lambda with its own poll (STREAMS_IN_AWS of them).
 */
async function quietStreamReadsPerSecond(platform: RunningPlatform, key: string, meter: ReturnType<typeof meterDynamo>): Promise<number> {
  const visitor: Visitor = { conversationId: crypto.randomUUID(), visitorId: crypto.randomUUID(), address: visitorAddress(499), transcript: [] };
  await say(platform, visitor, 'I want to talk to a human');
  const abort = new AbortController();
  // Held open and read to the end (what arrives is not looked at), until the window ends.
  const open = (url: string, headers: Record<string, string>) =>
    fetch(url, { headers, signal: abort.signal })
      .then(async (response) => {
        const reader = response.body!.getReader();
        while (!(await reader.read()).done);
      })
      .catch(() => undefined);
  void open(`${platform.url}/v1/agents/${platform.demo.agentId}/live?conversationId=${visitor.conversationId}`, {
    origin: 'http://localhost:3000',
    'x-visitor-id': visitor.visitorId,
  });
  void open(`${platform.apiBaseUrl}/conversations/stream?conversation_id=${visitor.conversationId}`, { 'x-service-api-key': key });
  // Past the polls' back-off to their quiet pace, then counted over a window.
  await sleep(3_000);
  meter.reset();
  await sleep(QUIET_SECONDS * 1000);
  const reads = meter.usage().get('conversations')?.readUnits ?? 0;
  abort.abort();
  return reads / QUIET_SECONDS;
}

/** The measured usage, with the streams' time and their polls' reads (which the bench cannot wait out) added as assumed. */
function withStreams(usage: MeasuredUsage, readsPerSecond: number): MeasuredUsage {
  const handledSeconds = HANDLED_MINUTES * 60;
  const streamsOf = (seconds: number) =>
    Array.from({ length: usage.commands * Math.ceil(handledSeconds / seconds) }, () => Math.min(seconds, handledSeconds) * 1000);
  const dynamo = new Map<TableName, TableUsage>(usage.dynamo);
  const conversations = dynamo.get('conversations') ?? { readUnits: 0, writeUnits: 0, indexWriteUnits: 0, failedConditionUnits: 0 };
  dynamo.set('conversations', { ...conversations, readUnits: conversations.readUnits + readsPerSecond * STREAMS_IN_AWS * handledSeconds * usage.commands });
  return {
    ...usage,
    lambda: [
      // The streams' own invocations in the bench lasted as long as the bench waited: replaced by the assumed ones.
      ...usage.lambda,
      {
        functionId: `Chat visitor live streams (assumed ${HANDLED_MINUTES} min, ${VISITOR_STREAM_SECONDS} s a connection)`,
        memoryMb: memoryOf('Chat'),
        durationsMs: streamsOf(VISITOR_STREAM_SECONDS),
      },
      {
        functionId: `RunStream teammate's conversations/stream (assumed ${HANDLED_MINUTES} min)`,
        memoryMb: memoryOf('RunStream'),
        durationsMs: streamsOf(TEAMMATE_STREAM_SECONDS),
      },
    ],
    dynamo,
  };
}

/**
 * The AWS bill of 1,000 handed-off conversations of 10 messages each (issue 29), from `count` of them on the local
 * platform: the visitor asks for a person in the widget chat (a model turn that calls the handoff tool), a teammate
 * claims it and replies 4 times over REST, the visitor writes 4 times (stored, no model), then it is closed. Measured
 * as the commands' bill is (cost.ts): request units, requests, each invocation's wall time. The live streams are
 * not waited out: their Lambda time is the time people handle the conversation (assumed), and their polls' reads are
 * measured over a quiet window and scaled to it.
 */
export async function handoffBill(count = 20, warmUp = 3): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const log = new InvocationLog();
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({
    port: 0,
    dynamoEndpoint: dynalite.endpoint,
    observer: log,
    env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  try {
    const { config } = platform.deps;
    const meter = meterDynamo(platform.deps.store, { tablePrefix: config.tablePrefix, region: config.region, endpoint: dynalite.endpoint });
    const members = (await (await fetch(`${platform.apiBaseUrl}/members/list`, { headers: { 'x-service-api-key': key } })).json()) as {
      data: { members: { user_id: string }[] };
    };
    const ownerId = members.data.members[0]!.user_id;
    for (let index = 0; index < warmUp; index += 1) await handedOff(platform, key, ownerId, index);
    log.reset();
    meter.reset();
    for (let index = 0; index < count; index += 1) await handedOff(platform, key, ownerId, warmUp + index);
    const usage: MeasuredUsage = {
      commands: count,
      lambda: lambdaUsage(log, meter.imageReads()),
      apiGatewayRequests: log.invocations.filter(throughHttpApi).length,
      sqs: sqsRequests(log),
      dynamo: meter.usage(),
    };
    const readsPerSecond = await quietStreamReadsPerSecond(platform, key, meter);
    return [
      `handed-off conversations: measured over ${count} (after ${warmUp} to warm up), each the visitor's ask and the agent's answer with its handoff, 4 visitor messages and 4 teammate replies over REST, closed; no webhook subscribed; scaled to 1,000`,
      ...formatBill(withStreams(usage, readsPerSecond), { unit: 'handed-off conversations' }),
      `assumed: people handle each conversation ${HANDLED_MINUTES} minutes, the visitor's live stream (a Chat Function URL invocation, ${VISITOR_STREAM_SECONDS} s a connection) and one teammate's conversations/stream (RunStream, ${TEAMMATE_STREAM_SECONDS} s a connection) open all that time, each a Lambda invocation billed for its whole length; each stream's poll reads ${readsPerSecond.toFixed(2)} RRU a second on a quiet conversation (the shared local poll, measured over ${QUIET_SECONDS} s; in AWS each of the ${STREAMS_IN_AWS} streams polls on its own). Held streams are most of this bill: an API Gateway WebSocket API bills messages and connection minutes instead of a Lambda held open (not priced here), at the cost of a second channel beside the run stream's Server-Sent Events`,
    ];
  } finally {
    await platform.stop();
    await dynalite.stop();
  }
}
