import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { createOrFind, deleteIf, queryAll } from '../../infra/store/dynamo';

/** The records domain's repository: every store call of the `records` table (sk `<kind>#<created_at>#<id>`). */
export interface StoredRecord<T> {
  workspaceId: string;
  sk: string;
  kind: string;
  fields: T & { id: string; created_at: string };
  /** The widget conversation (or run) whose agent created it: a visitor's erasure removes what came from them. */
  origin?: string;
}

/** Stores the record, or answers the one stored under its key (a retried create). */
export const createRecordOrFind = async <T>(deps: Deps, record: StoredRecord<T>): Promise<StoredRecord<T>> =>
  (await createOrFind(deps.store, 'records', record, { workspaceId: record.workspaceId, sk: record.sk })).item;

/** One page of a kind's records, newest first, from `startKey` on; the key to continue from, if any. */
export async function queryRecords<T>(deps: Deps, workspaceId: string, kind: string, limit: number, startKey?: Record<string, unknown>) {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('records'),
      KeyConditionExpression: 'workspaceId = :w AND begins_with(sk, :kind)',
      ExpressionAttributeValues: { ':w': workspaceId, ':kind': `${kind}#` },
      ScanIndexForward: false,
      Limit: limit,
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    }),
  );
  return { records: (result.Items ?? []) as StoredRecord<T>[], lastKey: result.LastEvaluatedKey };
}

/** Every record of a kind that came from one of `origins` (a filtered query of the kind's records, every page). */
export async function queryRecordsFromOrigins<T>(deps: Deps, workspaceId: string, kind: string, origins: string[]): Promise<StoredRecord<T>[]> {
  if (origins.length === 0) return [];
  const names = Object.fromEntries(origins.map((origin, index) => [`:o${index}`, origin]));
  return queryAll<StoredRecord<T>>(deps.store, {
    TableName: deps.store.table('records'),
    KeyConditionExpression: 'workspaceId = :w AND begins_with(sk, :kind)',
    FilterExpression: `origin IN (${Object.keys(names).join(', ')})`,
    ExpressionAttributeValues: { ':w': workspaceId, ':kind': `${kind}#`, ...names },
  });
}

export const deleteRecordItem = (deps: Deps, workspaceId: string, sk: string) =>
  deleteIf(deps.store, deps.store.table('records'), { workspaceId, sk }, { ConditionExpression: 'attribute_exists(sk)' });
