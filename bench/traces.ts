import { randomBase62 } from '@service/shared';
import { fork } from 'node:child_process';
import { enqueueNewRun } from '../lambdas/src/domains/runs/runs';
import { updateTelemetrySettings } from '../lambdas/src/domains/telemetry/settings';
import { flushTraces } from '../lambdas/src/domains/telemetry/tracing';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { addContactInstruction } from './contact-instruction';
import { startDynaliteProcess } from './dynalite-process';
import { QueueTally, settleAll } from './runner';

const TARGET_OVERHEAD = 0.05;

/**
 * An OTLP/HTTP collector stand-in in a process of its own (a collector is a service beside the platform: its work is
 * not the run's): it drains each export, counts its bytes, and answers 200 `{}` as a collector does.
 */
async function startOtlpSink(): Promise<{ endpoint: string; received: () => Promise<number>; stop: () => void }> {
  const script = `
    let bytes = 0;
    const server = require('node:http').createServer((request, response) => {
      request.on('data', (chunk) => (bytes += chunk.length));
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    server.listen(0, '127.0.0.1', () => process.send(server.address().port));
    process.on('message', () => process.send(bytes));
    process.on('disconnect', () => process.exit(0));`;
  const child = fork('-e', [script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] } as Parameters<typeof fork>[2]);
  const port = await new Promise<number>((resolve) => child.once('message', (message) => resolve(Number(message))));
  return {
    endpoint: `http://127.0.0.1:${port}/v1/traces`,
    received: () => new Promise((resolve) => (child.once('message', (bytes) => resolve(Number(bytes))), child.send('bytes'))),
    stop: () => child.kill(),
  };
}

/**
 * The CPU tracing adds to a run: the same runs (offline model, one contacts tool call each) with the workspace's
 * traces off and on, in alternating rounds so that a drifting machine weighs on both; on, every span is exported to a
 * collector on loopback and the export's flush is inside the measured window.
 */
export async function benchTraces(rounds = 7, runsPerRound = 50, warmUp = 40): Promise<string[]> {
  const queueTally = new QueueTally();
  const dynalite = await startDynaliteProcess();
  const sink = await startOtlpSink();
  const platform = await startPlatform({
    port: 0,
    dynamoEndpoint: dynalite.endpoint,
    observer: queueTally,
    env: { SERVICE_DEMO_API_KEY: `sk_live_${randomBase62(40)}`, WEBHOOK_ALLOW_LOCAL: '1' },
  });
  try {
    const { deps } = platform;
    const { workspaceId, agentId } = platform.demo;
    let next = 0;
    /** `count` runs queued, then handed out: the platform process's CPU milliseconds per run. */
    const pass = async (count: number, traced: boolean): Promise<number> => {
      await updateTelemetrySettings(deps, workspaceId, { otlp_endpoint: traced ? sink.endpoint : null });
      await platform.queue.stop();
      const runIds: string[] = [];
      for (let index = 0; index < count; index += 1)
        runIds.push((await enqueueNewRun(deps, { workspaceId, agentId, instruction: addContactInstruction(next++), autonomy: 'full' })).runId);
      const handledBefore = queueTally.handledOf('runs');
      const before = process.cpuUsage();
      platform.queue.start();
      await queueTally.untilHandled('runs', handledBefore + count, 120_000);
      await settleAll(deps, runIds);
      if (traced) await flushTraces(5_000);
      const cpu = process.cpuUsage(before);
      return (cpu.user + cpu.system) / 1000 / count;
    };
    await pass(warmUp, false);
    await pass(warmUp, true);
    const sinkBytesBefore = await sink.received();
    const off: number[] = [];
    const on: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      off.push(await pass(runsPerRound, false));
      on.push(await pass(runsPerRound, true));
    }
    const exportedBytes = (await sink.received()) - sinkBytesBefore;
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [offMs, onMs] = [median(off), median(on)];
    // Each round's on beside the off just before it: a busy moment on the machine spoils one pair, not the figure.
    const overhead = median(on.map((value, round) => (value - off[round]!) / off[round]!));
    return [
      `  baseline: traces off: ${offMs.toFixed(2)} ms of CPU a run (median round) (rounds: ${off.map((value) => value.toFixed(2)).join(', ')})`,
      `  traces on, every span exported over OTLP/HTTP to a collector on loopback: ${onMs.toFixed(2)} ms a run (median round; rounds: ${on.map((value) => value.toFixed(2)).join(', ')})`,
      `  overhead: ${(overhead * 100).toFixed(1)} % of the run's CPU (the median of the rounds' on-vs-off ratios); target at most ${TARGET_OVERHEAD * 100} %: ${overhead <= TARGET_OVERHEAD ? 'met' : 'NOT met'}`,
      `  exported ${(exportedBytes / (rounds * runsPerRound) / 1024).toFixed(1)} KB of OTLP JSON a run (contents off)`,
      `  (${rounds} alternating rounds of ${runsPerRound} runs each side, after ${warmUp} of each not counted; offline model, one contacts tool call a run; CPU of the platform's process: runner, API, built-in skills and the exporter; the store and the collector in processes of their own)`,
    ];
  } finally {
    await platform.stop();
    await dynalite.stop();
    sink.stop();
  }
}
