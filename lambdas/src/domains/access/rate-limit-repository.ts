import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { updateIf } from '../../infra/store/dynamo';

/**
 * The access domain's rate-limit repository: every store call of the `rateLimits` table; a failed condition comes back
 * as a value (undefined), never as a catch block.
 */

/** The `rateLimits` items under these buckets, by bucket (one consistent round trip). */
export async function getRateItems<T>(deps: Deps, buckets: string[]): Promise<Map<string, T>> {
  const table = deps.store.table('rateLimits');
  const result = await deps.store.doc.send(
    new BatchGetCommand({ RequestItems: { [table]: { Keys: buckets.map((bucket) => ({ bucket })), ConsistentRead: true } } }),
  );
  return new Map(((result.Responses?.[table] ?? []) as (T & { bucket: string })[]).map((item) => [item.bucket, item]));
}

/** Updates a `rateLimits` item under a condition (the whole new item, or undefined when the condition failed). */
export const updateRateItem = <T>(deps: Deps, bucket: string, update: string, condition: string, values: Record<string, unknown>) =>
  updateIf<T>(
    deps.store,
    deps.store.table('rateLimits'),
    { bucket },
    { UpdateExpression: update, ConditionExpression: condition, ExpressionAttributeValues: values },
  );
