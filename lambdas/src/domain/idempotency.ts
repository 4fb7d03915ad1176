import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError } from '@service/shared';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Deps } from '../deps';
import { ifConditionHolds } from '../store/dynamo';

/**
 * Stripe-style idempotency on one item per key: a single conditional put claims the key (it succeeds only if no
 * record exists, the record expired, or an in-progress claim outlived its lock), the response is stored on success,
 * and a repeat replays it. A concurrent repeat waits for the first to finish, then replays.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 128;
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
const LOCK_MS = 30_000;
const WAIT_FOR_CONCURRENT_MS = 10_000;

export interface StoredResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

interface IdempotencyRecord {
  scopedKey: string;
  requestHash: string;
  state: 'in_progress' | 'completed';
  response?: StoredResponse;
  expiresAt: number;
  expiresAtEpoch: number;
  lockedUntil: number;
}

export type IdempotencyClaim = { kind: 'claimed'; scopedKey: string; requestHash: string } | { kind: 'replay'; response: StoredResponse };

export const requestFingerprint = (method: string, path: string, body: unknown): string =>
  createHash('sha256').update(JSON.stringify([method, path, body ?? null])).digest('hex');

export async function claimIdempotencyKey(deps: Deps, workspaceId: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
  const scopedKey = `${workspaceId}#${key}`;
  const deadline = Date.now() + WAIT_FOR_CONCURRENT_MS;
  for (;;) {
    const now = deps.now().getTime();
    const record: IdempotencyRecord = {
      scopedKey,
      requestHash,
      state: 'in_progress',
      expiresAt: now + IDEMPOTENCY_RETENTION_MS,
      expiresAtEpoch: Math.ceil((now + IDEMPOTENCY_RETENTION_MS) / 1000),
      lockedUntil: now + LOCK_MS,
    };
    const claimed = await ifConditionHolds(
      deps.store.doc.send(
        new PutCommand({
          TableName: deps.store.table('idempotency'),
          Item: record,
          ConditionExpression: 'attribute_not_exists(scopedKey) OR expiresAt < :now OR (#state = :progress AND lockedUntil < :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':now': now, ':progress': 'in_progress' },
        }),
      ),
    );
    if (claimed) return { kind: 'claimed', scopedKey, requestHash };
    const existing = (
      await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('idempotency'), Key: { scopedKey }, ConsistentRead: true }))
    ).Item as IdempotencyRecord | undefined;
    if (existing && existing.requestHash !== requestHash) {
      throw new ApiError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was already used with a different request', { field: 'Idempotency-Key' });
    }
    if (existing?.state === 'completed' && existing.response) return { kind: 'replay', response: existing.response };
    if (Date.now() > deadline) {
      throw new ApiError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still in progress; retry shortly', { field: 'Idempotency-Key' });
    }
    await sleep(25);
  }
}

export async function completeIdempotencyKey(deps: Deps, claim: { scopedKey: string; requestHash: string }, response: StoredResponse): Promise<void> {
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.table('idempotency'),
      Key: { scopedKey: claim.scopedKey },
      UpdateExpression: 'SET #state = :done, #response = :response',
      ConditionExpression: 'requestHash = :hash',
      ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
      ExpressionAttributeValues: { ':done': 'completed', ':response': response, ':hash': claim.requestHash },
    }),
  );
}

/** Frees the key after a failed attempt so that the caller may retry it. */
export async function releaseIdempotencyKey(deps: Deps, claim: { scopedKey: string; requestHash: string }): Promise<void> {
  await ifConditionHolds(
    deps.store.doc.send(
      new DeleteCommand({
        TableName: deps.store.table('idempotency'),
        Key: { scopedKey: claim.scopedKey },
        ConditionExpression: '#state = :progress AND requestHash = :hash',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':progress': 'in_progress', ':hash': claim.requestHash },
      }),
    ),
  );
}
