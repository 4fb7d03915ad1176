import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';

/** Every store call of the `connectionCalls` table: the recent calls of a connection or an MCP key, by its id. */

export interface StoredCall {
  connectionId: string;
  sk: string;
  at: string;
  tool: string;
  agentId: string | null;
  runId: string | null;
  outcome: string;
  expiresAtEpoch: number;
}

/** Keeps a call (one write per call: the counts and the last use are read from these records when listed). */
export async function recordCall(deps: Deps, call: StoredCall): Promise<void> {
  await deps.store.doc.send(new PutCommand({ TableName: deps.store.table('connectionCalls'), Item: call }));
}

/** How many calls a connection made (within the calls' retention) and when it was last used. */
export async function callUse(deps: Deps, connectionId: string): Promise<{ calls: number; lastUsedAt: string | null }> {
  const [count, newest] = await Promise.all([
    deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.table('connectionCalls'),
        KeyConditionExpression: 'connectionId = :c',
        ExpressionAttributeValues: { ':c': connectionId },
        Select: 'COUNT',
      }),
    ),
    recentCalls(deps, connectionId, 1),
  ]);
  return { calls: count.Count ?? 0, lastUsedAt: newest[0]?.at ?? null };
}

export async function recentCalls(deps: Deps, connectionId: string, limit: number): Promise<StoredCall[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('connectionCalls'),
      KeyConditionExpression: 'connectionId = :c',
      ExpressionAttributeValues: { ':c': connectionId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as StoredCall[];
}
