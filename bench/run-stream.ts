import { randomBase62 } from '@service/shared';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { enqueueNewRun } from '../lambdas/src/domains/runs/runs';
import { startPlatform, type RunningPlatform } from '../lambdas/src/entries/local/platform';

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

/** Opens agents/command_stream over real HTTP; `onEvent` sees each event as it arrives; resolves when the stream closes. */
function openStream(platform: RunningPlatform, key: string, runId: string, onEvent: (event: EventSourceMessage, at: number) => void): Promise<void> {
  const parser = createParser({ onEvent: (event) => onEvent(event, Date.now()) });
  return fetch(`${platform.apiBaseUrl}/agents/command_stream?run_id=${runId}`, { headers: { 'x-service-api-key': key } }).then(async (response) => {
    if (response.status !== 200) throw new Error(`stream answered ${response.status}`);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) parser.feed(read.value);
  });
}

const command = (platform: RunningPlatform, index: number) =>
  enqueueNewRun(platform.deps, {
    workspaceId: platform.demo.workspaceId,
    agentId: platform.demo.agentId,
    instruction: `Please add Person ${index} (p${index}@example.com) to my contacts.`,
    autonomy: 'full',
  });

/** How long after a run's first step (`running`, stamped by its runner) its stream delivered it, one run at a time. */
async function firstEventLatency(platform: RunningPlatform, key: string, runs: number): Promise<string> {
  const latencies: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    await platform.queue.stop();
    const run = await command(platform, index);
    let latency: number | undefined;
    const closed = openStream(platform, key, run.runId, (event, at) => {
      if (latency === undefined && event.event === 'status' && Number(event.id) >= 1) latency = at - Date.parse((JSON.parse(event.data) as { at: string }).at);
    });
    platform.queue.start();
    await closed;
    latencies.push(latency!);
  }
  const p50 = percentile(latencies, 50);
  return `first streamed event after the run's first step  p50 ${p50.toFixed(0)} ms   p99 ${percentile(latencies, 99).toFixed(0)} ms   (n=${runs}; target p50 <= 50 ms: ${(p50 / 50).toFixed(2)}x of it)`;
}

/** `streams` open at once on live runs: the memory each costs the process, and every one delivering its run to the end. */
async function concurrentStreams(platform: RunningPlatform, key: string, streams: number, runs: number): Promise<string[]> {
  await platform.queue.stop();
  const runIds = await Promise.all(Array.from({ length: runs }, (_, index) => command(platform, index).then((run) => run.runId)));
  global.gc?.();
  const before = process.memoryUsage();
  let opened = 0;
  const finals: number[] = [];
  const closed = Array.from({ length: streams }, (_, index) =>
    openStream(platform, key, runIds[index % runs]!, (event) => {
      if (event.id === '0') opened += 1;
      if (event.event === 'run') finals.push(index);
    }),
  );
  while (opened < streams) await new Promise((resolve) => setTimeout(resolve, 20));
  global.gc?.();
  const open = process.memoryUsage();
  const started = Date.now();
  platform.queue.start();
  await Promise.all(closed);
  const perStreamKb = (open.heapUsed - before.heapUsed) / streams / 1024;
  const rssPerStreamKb = (open.rss - before.rss) / streams / 1024;
  return [
    `${streams} concurrent streams over ${runs} live runs: all ${finals.length} got their run's final event, ${((Date.now() - started) / 1000).toFixed(1)} s after the runs started`,
    `  memory per open stream (client and server in this process): heap ${perStreamKb.toFixed(1)} KB, rss ${rssPerStreamKb.toFixed(1)} KB`,
  ];
}

/** agents/command_stream: first-event latency against the run's own first step, and 500 streams at once. */
export async function benchRunStream(): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const platform = await startPlatform({ port: 0, env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000' } });
  try {
    return [await firstEventLatency(platform, key, 50), ...(await concurrentStreams(platform, key, 500, 50))];
  } finally {
    await platform.stop();
  }
}
