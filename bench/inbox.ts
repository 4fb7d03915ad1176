import { randomBase62 } from '@service/shared';
import { createParser } from 'eventsource-parser';
import { request } from 'node:http';
import { startPlatform, type RunningPlatform } from '../lambdas/src/entries/local/platform';
import { startDynaliteProcess } from './dynalite-process';
import { figuresOf } from './measure';

const VISITORS = 500;
const TEAMMATES = 20;
const SAMPLES = 200;
const TARGET_P50_MS = 100;
const WIDGET_ORIGIN = 'http://localhost:3000';

/**
 * A visitor's own address on loopback (127.0.x.y): the widget limits messages per address and agent, as it does per
 * visitor's IP in AWS, so each simulated visitor speaks from its own.
 */
export const visitorAddress = (index: number) => `127.0.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`;

export interface Visitor {
  conversationId: string;
  visitorId: string;
  address: string;
  transcript: { role: 'user' | 'assistant'; content: string }[];
}

/** One chat turn of a visitor, from its own address; resolves once the reply has ended. */
export function say(platform: RunningPlatform, visitor: Visitor, content: string): Promise<void> {
  visitor.transcript.push({ role: 'user', content });
  const body = JSON.stringify({ conversationId: visitor.conversationId, visitorId: visitor.visitorId, locale: 'en', messages: visitor.transcript });
  const url = new URL(`${platform.url}/v1/agents/${platform.demo.agentId}/chat`);
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: visitor.address,
        headers: { 'content-type': 'application/json', origin: WIDGET_ORIGIN },
      },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`chat answered ${response.statusCode}`));
        response.resume().on('end', resolve).on('error', reject);
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}

/** A live stream (Server-Sent Events) held open; `onMessage` sees each `message` event's text when it arrives. */
function follow(url: string, headers: Record<string, string>, onMessage: (text: string, at: number) => void): { opened: Promise<void>; close: () => void } {
  const abort = new AbortController();
  let markOpen: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (markOpen = resolve));
  const parser = createParser({
    onEvent: (event) => {
      if (event.event === 'state') markOpen();
      if (event.event === 'message') onMessage((JSON.parse(event.data) as { text: string }).text, performance.now());
    },
  });
  void fetch(url, { headers, signal: abort.signal })
    .then(async (response) => {
      if (response.status !== 200) throw new Error(`stream answered ${response.status}`);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) parser.feed(read.value);
    })
    .catch((error: unknown) => {
      if (!abort.signal.aborted) throw error;
    });
  return { opened, close: () => abort.abort() };
}

/** Waits for the next arrival of `text` on a stream that reports to `arrivals`; its time. */
function arrival(arrivals: Map<string, (at: number) => void>, text: string): Promise<number> {
  return new Promise((resolve) => arrivals.set(text, resolve));
}

async function api(platform: RunningPlatform, key: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${platform.apiBaseUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': key },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function inTurns<T>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

const line = (label: string, latencies: number[]) => {
  const figures = figuresOf(label, latencies, 1);
  return `${label.padEnd(44)} p50 ${figures.p50Ms.toFixed(1)} ms   p99 ${figures.p99Ms.toFixed(1)} ms   (n=${figures.count}; target p50 <= ${TARGET_P50_MS} ms: ${figures.p50Ms <= TARGET_P50_MS ? 'met' : 'NOT met'}, ${(figures.p50Ms / TARGET_P50_MS).toFixed(2)}x of it)`;
};

/**
 * People in the conversation, live (issue 29): 500 visitors handed to people, each with the widget's live stream open,
 * and 20 teammates each following one of them on conversations/stream, all at once over real HTTP to the local
 * platform (dynalite in its own process). Measured one at a time with every connection open: a teammate's reply
 * (conversations/reply) to the moment the visitor's stream delivers it, and a visitor's message (the widget chat) to
 * the moment the teammate's stream delivers it; and the memory each open connection costs (client and server in
 * this process, as the run-stream bench measures it).
 */
export async function benchInbox(): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({ port: 0, dynamoEndpoint: dynalite.endpoint, env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' } });
  const streams: { close: () => void }[] = [];
  try {
    const visitors: Visitor[] = Array.from({ length: VISITORS }, (_, index) => ({
      conversationId: crypto.randomUUID(),
      visitorId: crypto.randomUUID(),
      address: visitorAddress(index),
      transcript: [],
    }));
    await inTurns(visitors, 8, (visitor) => say(platform, visitor, 'I want to talk to a human'));
    const ownerId = await fetch(`${platform.apiBaseUrl}/members/list`, { headers: { 'x-service-api-key': key } })
      .then((response) => response.json() as Promise<{ data: { members: { user_id: string }[] } }>)
      .then((answer) => answer.data.members[0]!.user_id);
    await inTurns(visitors, 8, (visitor) => api(platform, key, 'conversations/assign', { conversation_id: visitor.conversationId, user_id: ownerId }));

    global.gc?.();
    const before = process.memoryUsage();
    const onVisitorScreen = new Map<string, (at: number) => void>();
    const inInbox = new Map<string, (at: number) => void>();
    const deliver = (arrivals: Map<string, (at: number) => void>) => (text: string, at: number) => {
      arrivals.get(text)?.(at);
      arrivals.delete(text);
    };
    const liveUrl = (visitor: Visitor) => `${platform.url}/v1/agents/${platform.demo.agentId}/live?conversationId=${visitor.conversationId}`;
    for (const visitor of visitors)
      streams.push(follow(liveUrl(visitor), { origin: WIDGET_ORIGIN, 'x-visitor-id': visitor.visitorId }, deliver(onVisitorScreen)));
    const teamUrl = (visitor: Visitor) => `${platform.apiBaseUrl}/conversations/stream?conversation_id=${visitor.conversationId}`;
    for (const visitor of visitors.slice(0, TEAMMATES)) streams.push(follow(teamUrl(visitor), { 'x-service-api-key': key }, deliver(inInbox)));
    await Promise.all(streams.map((stream) => (stream as ReturnType<typeof follow>).opened));
    global.gc?.();
    const open = process.memoryUsage();

    const replyLatencies: number[] = [];
    for (let index = 0; index < SAMPLES; index += 1) {
      const visitor = visitors[(index * 7) % VISITORS]!;
      const text = `Reply ${index} from the team`;
      const seen = arrival(onVisitorScreen, text);
      const started = performance.now();
      await api(platform, key, 'conversations/reply', { conversation_id: visitor.conversationId, text });
      replyLatencies.push((await seen) - started);
    }
    const messageLatencies: number[] = [];
    for (let index = 0; index < SAMPLES; index += 1) {
      const visitor = visitors[index % TEAMMATES]!;
      const text = `Visitor message ${index}`;
      const seen = arrival(inInbox, text);
      const started = performance.now();
      await say(platform, visitor, text);
      messageLatencies.push((await seen) - started);
    }
    const connections = streams.length;
    return [
      `${VISITORS} visitors handed to people, each with its live stream open, and ${TEAMMATES} teammates on conversations/stream: ${connections} connections at once, one reply or message at a time`,
      line('teammate reply -> visitor screen', replyLatencies),
      line('visitor message -> inbox', messageLatencies),
      `memory per open connection (client and server in this process): heap ${((open.heapUsed - before.heapUsed) / connections / 1024).toFixed(1)} KB, rss ${((open.rss - before.rss) / connections / 1024).toFixed(1)} KB`,
      `measured from the request's start to the event's arrival on the stream; the local platform is one process, so a write wakes the conversation's poll at once (in AWS the writer is another Lambda: the stream sees it at its next poll, at most a second later while the conversation is quiet, 100 ms after news)`,
    ];
  } finally {
    streams.forEach((stream) => stream.close());
    await platform.stop();
    await dynalite.stop();
  }
}
