import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Store } from './dynamo';

export type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** BatchWriteItem's limit of requests in one call. */
export const MAX_BATCH_WRITE = 25;

/**
 * Unconditional puts and deletes of one table in BatchWriteItem calls of at most 25 requests (sent together), each
 * repeated with what the store left unprocessed until nothing is. The requests of one call land in no set order.
 */
export async function writeAll(store: Store, tableName: string, requests: WriteRequest[]): Promise<void> {
  const calls: WriteRequest[][] = [];
  for (let start = 0; start < requests.length; start += MAX_BATCH_WRITE) calls.push(requests.slice(start, start + MAX_BATCH_WRITE));
  await Promise.all(
    calls.map(async (call) => {
      for (let pending = call; pending.length > 0;) {
        const result = await store.doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = result.UnprocessedItems?.[tableName] ?? [];
      }
    }),
  );
}
