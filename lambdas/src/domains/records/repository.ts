import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { createOrFind } from '../../infra/store/dynamo';

/** The records domain's repository: every store call of the `records` table (sk `<kind>#<created_at>#<id>`). */
export interface StoredRecord<T> {
  workspaceId: string;
  sk: string;
  kind: string;
  fields: T & { id: string; created_at: string };
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
