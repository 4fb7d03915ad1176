import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { createOrFind, updateIf, type ConditionalUpdate } from '../../infra/store/dynamo';

/**
 * The runs domain's repository: every store call of the `runs` table, on items in their stored form (runs.ts maps
 * them); a failed condition comes back as a value.
 */
const table = (deps: Deps) => deps.store.table('runs');

/** Stores the run item, or answers the one stored under its id (a resumed action). */
export const createRunItemOrFind = async <T extends { runId: string }>(deps: Deps, item: T): Promise<T> => (await createOrFind(deps.store, 'runs', item, { runId: item.runId })).item;

export async function getRunItem<T>(deps: Deps, runId: string): Promise<T | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: table(deps), Key: { runId }, ConsistentRead: true }));
  return result.Item as T | undefined;
}

/** An agent's latest runs, newest first (the `byAgent` index). */
export async function queryRunItemsByAgent<T>(deps: Deps, agentId: string, limit: number): Promise<T[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      IndexName: 'byAgent',
      KeyConditionExpression: 'agentId = :a',
      ExpressionAttributeValues: { ':a': agentId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as T[];
}

/** Runs still `status` created before `before`, oldest first (the sparse `pending` index). */
/**
 * The oldest `limit` runs of a pending status created before `before`, page after page of the index: one page (a
 * query's 1 MB) may hold fewer, and a sweep must see past the runs still held by live runners to the lapsed ones.
 */
export async function queryPendingRunItems<T>(deps: Deps, status: string, before: Date, limit: number): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await deps.store.doc.send(
      new QueryCommand({
        TableName: table(deps),
        IndexName: 'pending',
        KeyConditionExpression: 'pendingStatus = :s AND createdAt < :before',
        ExpressionAttributeValues: { ':s': status, ':before': before.toISOString() },
        Limit: limit - items.length,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    items.push(...((result.Items ?? []) as T[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items;
}

/** Sets fields of a run, unconditionally. */
export async function setRunFields(deps: Deps, runId: string, fields: Record<string, unknown>): Promise<void> {
  const names = Object.keys(fields);
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: table(deps),
      Key: { runId },
      UpdateExpression: `SET ${names.map((name) => `${name} = :${name}`).join(', ')}`,
      ExpressionAttributeValues: Object.fromEntries(names.map((name) => [`:${name}`, fields[name]])),
    }),
  );
}

/** Updates a run under a condition; the item as updated, or undefined when the condition failed. */
export const updateRunItemIf = <T>(deps: Deps, runId: string, update: ConditionalUpdate): Promise<T | undefined> => updateIf<T>(deps.store, table(deps), { runId }, update);

/** Updates a run under a condition; false when the condition failed. */
export const updateRunIf = async (deps: Deps, runId: string, update: ConditionalUpdate): Promise<boolean> => (await updateRunItemIf(deps, runId, update)) !== undefined;
