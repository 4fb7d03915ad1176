import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../src/infra/deps';
import { findRun } from '../../src/domains/runs/runs';

/** Run ids of messages waiting in the runs queue (or its dead-letter queue) whose run does not exist. */
export async function orphanRunMessages(deps: Deps): Promise<string[]> {
  const orphans: string[] = [];
  for (const queue of ['runs', 'runs-dlq']) {
    const result = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.table('localQueue'),
        KeyConditionExpression: '#q = :q',
        ExpressionAttributeNames: { '#q': 'queue' },
        ExpressionAttributeValues: { ':q': queue },
      }),
    );
    for (const item of result.Items ?? []) {
      const { runId } = JSON.parse(item.body as string) as { runId: string };
      if (!(await findRun(deps, runId))) orphans.push(runId);
    }
  }
  return orphans;
}
