import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Agent, request } from 'node:http';
import { randomBase62 } from '@service/shared';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { startDynaliteProcess } from './dynalite-process';
import { formatFigures, formatRatio, measure, measureInTurns } from './measure';

/** The transport the AWS SDK's own Node handler uses (node:http, kept-alive sockets), so both sides pay the same client. */
const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });

function postJson(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', agent: keepAlive, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', reject);
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

/**
 * POST agents/command on the local platform (HTTP, auth + rate limit, validation, run write, queue write) against a
 * bare conditional PutItem of a run, both on the same dynalite, which runs in a process of its own as DynamoDB is a
 * service of its own (dynalite-process.ts). The runner is paused so only the API is measured. Throughput with
 * `concurrency` requests in flight; p50 latency one request at a time (unloaded), and with requests in flight for
 * reference; each pair measured in alternating rounds (measureInTurns).
 */
export async function benchApiCommand(count = 2000, concurrency = 16, unloadedCount = 500): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({ port: 0, dynamoEndpoint: dynalite.endpoint, env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' } });
  try {
    await platform.queue.stop();
    const { doc, table } = platform.deps.store;
    const body = JSON.stringify({ agent_id: platform.demo.agentId, instruction: 'Send the weekly report to the team' });
    const post = async () => {
      const status = await postJson(`${platform.apiBaseUrl}/agents/command/`, { 'x-service-api-key': key }, body);
      if (status !== 202) throw new Error(`agents/command answered ${status}`);
    };
    const put = async (index: number) => {
      await doc.send(
        new PutCommand({
          TableName: table('runs'),
          // The item the command stores for this instruction (runs.ts), with the same indexes to keep.
          Item: {
            runId: `bench_${index}_${randomBase62(8)}`,
            workspaceId: platform.demo.workspaceId,
            agentId: platform.demo.agentId,
            status: 'queued',
            pendingStatus: 'queued',
            autonomy: 'read_only',
            instruction: 'Send the weekly report to the team',
            usage: { inputTokens: 0, outputTokens: 0 },
            createdAt: new Date().toISOString(),
          },
          ConditionExpression: 'attribute_not_exists(runId)',
        }),
      );
    };
    await measure('warm-up', 200, concurrency, post);
    await measure('warm-up', 200, concurrency, put);
    const tasks = { baseline: put, candidate: post };
    const loaded = await measureInTurns(
      { baseline: `bare conditional PutItem (dynalite), ${concurrency} in flight`, candidate: `POST agents/command (HTTP), ${concurrency} in flight` },
      tasks,
      count,
      concurrency,
    );
    const unloaded = await measureInTurns(
      { baseline: 'bare conditional PutItem (dynalite), one at a time', candidate: 'POST agents/command (HTTP), one at a time' },
      tasks,
      unloadedCount,
      1,
    );
    return [
      ...[loaded.baseline, loaded.candidate, unloaded.baseline, unloaded.candidate].map(formatFigures),
      formatRatio('agents/command vs bare PutItem', { loaded, unloaded }, { throughput: 4, p50: 2.5 }),
    ];
  } finally {
    await platform.stop();
    await dynalite.stop();
  }
}
