import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../../infra/deps';

/**
 * The `runSteps` table: one item per step, `step` kept as JSON text (any key the model or a tool used is stored as is).
 * A run's text pieces (text-deltas.ts) live beside its steps under a partition of their own, so that reading the
 * steps (command_status) never meets them.
 */
export interface StepItem {
  runId: string;
  seq: number;
  step: string;
}

const table = (deps: Deps) => deps.store.table('runSteps');
const BATCH_MAX = 25;

/** Writes steps in BatchWriteItem calls of 25, retrying what the store left unprocessed. */
export async function putStepItems(deps: Deps, items: StepItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += BATCH_MAX) {
    let requests: Record<string, unknown>[] | undefined = items.slice(start, start + BATCH_MAX).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests?.length; attempt += 1) {
      if (attempt > 5) throw new Error(`run steps not written after ${attempt} attempts`);
      const result = await deps.store.doc.send(new BatchWriteCommand({ RequestItems: { [table(deps)]: requests } }));
      requests = result.UnprocessedItems?.[table(deps)] as Record<string, unknown>[] | undefined;
    }
  }
}

/** Up to `limit` items of a partition after `after`, in order; `more` when the store has further ones. */
async function queryAfter(deps: Deps, partition: string, after: number, limit: number): Promise<{ items: StepItem[]; more: boolean }> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'runId = :r AND seq > :after',
      ExpressionAttributeValues: { ':r': partition, ':after': after },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return { items: (result.Items ?? []) as StepItem[], more: result.LastEvaluatedKey !== undefined };
}

/** Up to `limit` steps after `afterSeq`, in order; `more` when the store has further ones. */
export const queryStepItems = (deps: Deps, runId: string, afterSeq: number, limit: number) => queryAfter(deps, runId, afterSeq, limit);

/** The partition of a run's text pieces, their `seq` the stream position of each (runEventPosition). */
export const textPiecesPartition = (runId: string) => `${runId}#text`;

/** Up to `limit` text pieces of a run after stream position `afterPosition`, in order. */
export const queryTextPieceItems = (deps: Deps, runId: string, afterPosition: number, limit: number) =>
  queryAfter(deps, textPiecesPartition(runId), afterPosition, limit);

/** The seq of the last step a run stored, 0 for none. */
export async function lastStepSeq(deps: Deps, runId: string): Promise<number> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'runId = :r',
      ExpressionAttributeValues: { ':r': runId },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return (result.Items?.[0] as StepItem | undefined)?.seq ?? 0;
}

/** How many steps a run stored. */
export async function countStepItems(deps: Deps, runId: string): Promise<number> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'runId = :r',
      ExpressionAttributeValues: { ':r': runId },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return result.Count ?? 0;
}
