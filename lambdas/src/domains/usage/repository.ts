import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { queryAll } from '../../infra/store/dynamo';

/** The usage domain's repository: every store call of the `usage` table (one counter item per workspace, day and agent). */
export interface UsageItem {
  sk: string;
  inputTokens?: number;
  outputTokens?: number;
  runs?: number;
}

const table = (deps: Deps) => deps.store.table('usage');

/** Adds a run's tokens to its counter item (ADD, so concurrent runs never lose a count). */
export async function addUsage(deps: Deps, workspaceId: string, sk: string, tokens: { inputTokens: number; outputTokens: number }): Promise<void> {
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: table(deps),
      Key: { workspaceId, sk },
      UpdateExpression: 'ADD inputTokens :in, outputTokens :out, runs :one',
      ExpressionAttributeValues: { ':in': tokens.inputTokens, ':out': tokens.outputTokens, ':one': 1 },
    }),
  );
}

/** The counter items of the days `from` to `to` (YYYY-MM-DD, inclusive), every page. */
export async function queryUsageItems(deps: Deps, workspaceId: string, from: string, to: string): Promise<UsageItem[]> {
  return queryAll<UsageItem>(deps.store, {
    TableName: table(deps),
    KeyConditionExpression: 'workspaceId = :w AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':w': workspaceId, ':from': `day#${from}`, ':to': `day#${to}#~` },
  });
}
