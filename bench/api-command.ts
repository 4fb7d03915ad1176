import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomBase62 } from '@service/shared';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { formatFigures, formatRatio, measure } from './measure';

/**
 * POST agents/command on the local platform (HTTP, auth + rate limit, validation, run write, queue write) against a
 * bare conditional PutItem on the same dynalite, in the same process. The runner is paused so only the API is measured.
 * Throughput with `concurrency` requests in flight; p50 latency one request at a time (unloaded), and with requests in
 * flight for reference.
 */
export async function benchApiCommand(count = 2000, concurrency = 16, unloadedCount = 500): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const platform = await startPlatform({ port: 0, env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' } });
  try {
    await platform.queue.stop();
    const { doc, table } = platform.deps.store;
    const body = JSON.stringify({ agent_id: platform.demo.agentId, instruction: 'Send the weekly report to the team' });
    const post = async () => {
      const response = await fetch(`${platform.apiBaseUrl}/agents/command/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-api-key': key }, body });
      if (response.status !== 202) throw new Error(`agents/command answered ${response.status}`);
      await response.arrayBuffer();
    };
    const put = async (index: number) => {
      await doc.send(
        new PutCommand({
          TableName: table('runs'),
          Item: { runId: `bench_${index}_${randomBase62(8)}`, agentId: 'bench', createdAt: new Date().toISOString(), status: 'queued', instruction: 'Send the weekly report to the team' },
          ConditionExpression: 'attribute_not_exists(runId)',
        }),
      );
    };
    await measure('warm-up', 200, concurrency, post);
    await measure('warm-up', 200, concurrency, put);
    const loaded = {
      baseline: await measure(`bare conditional PutItem (dynalite), ${concurrency} in flight`, count, concurrency, put),
      candidate: await measure(`POST agents/command (HTTP), ${concurrency} in flight`, count, concurrency, post),
    };
    const unloaded = {
      baseline: await measure('bare conditional PutItem (dynalite), one at a time', unloadedCount, 1, put),
      candidate: await measure('POST agents/command (HTTP), one at a time', unloadedCount, 1, post),
    };
    return [
      ...[loaded.baseline, loaded.candidate, unloaded.baseline, unloaded.candidate].map(formatFigures),
      formatRatio('agents/command vs bare PutItem', { loaded, unloaded }, { throughput: 4, p50: 2.5 }),
    ];
  } finally {
    await platform.stop();
  }
}
