import { randomBase62 } from '@service/shared';
import { setTimeout as sleep } from 'node:timers/promises';
import { enqueueNewRun, findRun } from '../lambdas/src/domains/runs/runs';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { formatFigures, type Figures } from './measure';

/** Runs per second through the runner with the offline model: queue N runs, start the consumer, time each to completion. */
export async function benchRunner(count = 300): Promise<string[]> {
  const platform = await startPlatform({ port: 0, env: { SERVICE_DEMO_API_KEY: `sk_live_${randomBase62(40)}` } });
  try {
    await platform.queue.stop();
    const { deps } = platform;
    const runIds: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const run = await enqueueNewRun(deps, { workspaceId: platform.demo.workspaceId, agentId: platform.demo.agentId, instruction: `Please add Person ${index} (p${index}@example.com) to my contacts.`, autonomy: 'full' });
      runIds.push(run.runId);
    }
    const started = Date.now();
    platform.queue.start();
    const durations: number[] = [];
    const pending = new Set(runIds);
    while (pending.size > 0) {
      await sleep(50);
      for (const runId of [...pending]) {
        const run = await findRun(deps, runId);
        if (run && ['completed', 'failed'].includes(run.status)) {
          if (run.status === 'failed') throw new Error(`bench run failed: ${run.error}`);
          durations.push(Date.parse(run.completedAt!) - Date.parse(run.startedAt!));
          pending.delete(runId);
        }
      }
    }
    const elapsedS = (Date.now() - started) / 1000;
    durations.sort((a, b) => a - b);
    const figures: Figures = {
      label: 'runs through the runner (offline model, 1 tool call)',
      count,
      perSecond: count / elapsedS,
      p50Ms: durations[Math.floor(count * 0.5)]!,
      p99Ms: durations[Math.min(count - 1, Math.floor(count * 0.99))]!,
    };
    return [formatFigures(figures), '  (latency = one run from start to completion inside the runner)'];
  } finally {
    await platform.stop();
  }
}
