import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError } from '@service/shared';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Deps } from '../deps';
import { deleteIf, putIf, queryAll, updateIf } from './dynamo';

/**
 * Stripe-style idempotency on one item per key: a single conditional put claims the key (it succeeds only if no
 * record exists or the record expired), the response is stored on success, and a repeat replays it. A concurrent
 * repeat waits for the first to finish, then replays.
 *
 * Crash safety: the claim fixes the action's identity (`Action`: its time and a seed its ids derive from). When an
 * attempt dies after acting but before storing its response, the retry resumes the claim once its lock lapsed and
 * runs the endpoint with the same identity: every create writes under the derived id only if absent and otherwise
 * answers with what the first attempt wrote, so the action happens once.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 128;
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_LOCK_MS = 30_000;
const WAIT_FOR_CONCURRENT_MS = 10_000;

export interface StoredResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

/** Who an action is: its time, and (with an Idempotency-Key) the seed its new ids derive from. */
export interface Action {
  at: Date;
  seed?: string;
  /** An earlier attempt of this action stopped without answering: what it wrote may already exist. */
  resumed?: boolean;
}

interface IdempotencyRecord {
  scopedKey: string;
  /** The workspace the key is scoped to (the `byWorkspace` index an erasure reads). */
  workspaceId: string;
  requestHash: string;
  state: 'in_progress' | 'completed';
  response?: StoredResponse;
  actionAt: string;
  expiresAt: number;
  expiresAtEpoch: number;
  lockedUntil: number;
}

export interface IdempotencyClaimed {
  kind: 'claimed';
  scopedKey: string;
  requestHash: string;
  action: Action;
}
export type IdempotencyClaim = IdempotencyClaimed | { kind: 'replay'; response: StoredResponse };
type ClaimRef = Pick<IdempotencyClaimed, 'scopedKey' | 'requestHash'>;

export const requestFingerprint = (method: string, path: string, body: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify([method, path, body ?? null]))
    .digest('hex');

const claimedFrom = (record: Pick<IdempotencyRecord, 'scopedKey' | 'requestHash' | 'actionAt'>, resumed = false): IdempotencyClaimed => ({
  kind: 'claimed',
  scopedKey: record.scopedKey,
  requestHash: record.requestHash,
  action: { at: new Date(record.actionAt), seed: `${record.scopedKey}#${record.actionAt}`, ...(resumed ? { resumed } : {}) },
});

/** A new key, or one whose record expired: a new action. */
async function claimFresh(deps: Deps, workspaceId: string, scopedKey: string, requestHash: string, now: number): Promise<IdempotencyClaimed | undefined> {
  const record: IdempotencyRecord = {
    scopedKey,
    workspaceId,
    requestHash,
    state: 'in_progress',
    actionAt: new Date(now).toISOString(),
    expiresAt: now + IDEMPOTENCY_RETENTION_MS,
    expiresAtEpoch: Math.ceil((now + IDEMPOTENCY_RETENTION_MS) / 1000),
    lockedUntil: now + IDEMPOTENCY_LOCK_MS,
  };
  const put = await putIf(deps.store, deps.store.table('idempotency'), record, {
    ConditionExpression: 'attribute_not_exists(scopedKey) OR expiresAt < :now',
    ExpressionAttributeValues: { ':now': now },
  });
  return put ? claimedFrom(record) : undefined;
}

/** An identical request whose attempt stopped (crashed) without an answer: the same action, resumed. */
async function resumeAbandoned(deps: Deps, scopedKey: string, requestHash: string, now: number): Promise<IdempotencyClaimed | undefined> {
  const resumed = await updateIf<IdempotencyRecord>(
    deps.store,
    deps.store.table('idempotency'),
    { scopedKey },
    {
      UpdateExpression: 'SET lockedUntil = :lock',
      ConditionExpression: '#state = :progress AND lockedUntil < :now AND expiresAt >= :now AND requestHash = :hash',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':lock': now + IDEMPOTENCY_LOCK_MS, ':now': now, ':progress': 'in_progress', ':hash': requestHash },
    },
  );
  return resumed ? claimedFrom(resumed, true) : undefined;
}

export async function claimIdempotencyKey(deps: Deps, workspaceId: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
  const scopedKey = `${workspaceId}#${key}`;
  const deadline = Date.now() + WAIT_FOR_CONCURRENT_MS;
  for (;;) {
    const now = deps.now().getTime();
    const claimed = (await claimFresh(deps, workspaceId, scopedKey, requestHash, now)) ?? (await resumeAbandoned(deps, scopedKey, requestHash, now));
    if (claimed) return claimed;
    const existing = (await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('idempotency'), Key: { scopedKey }, ConsistentRead: true })))
      .Item as IdempotencyRecord | undefined;
    if (existing && existing.requestHash !== requestHash) {
      throw new DomainError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was already used with a different request', { field: 'Idempotency-Key' });
    }
    if (existing?.state === 'completed' && existing.response) return { kind: 'replay', response: existing.response };
    if (Date.now() > deadline) {
      throw new DomainError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still in progress; retry shortly', { field: 'Idempotency-Key' });
    }
    await sleep(25);
  }
}
export async function completeIdempotencyKey(deps: Deps, claim: ClaimRef, response: StoredResponse): Promise<void> {
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

/** Holds for the claim's own record while still in progress: a completed record, or another request's, is left alone. */
const ownInProgress = (claim: ClaimRef) => ({
  ConditionExpression: '#state = :progress AND requestHash = :hash',
  ExpressionAttributeNames: { '#state': 'state' },
  ExpressionAttributeValues: { ':progress': 'in_progress', ':hash': claim.requestHash },
});

/**
 * After an unexpected failure the attempt may have acted in part: the claim is kept (its action identity with it)
 * and only unlocked, so that the same request retried at once resumes that action instead of starting another.
 */
export async function unlockIdempotencyKey(deps: Deps, claim: ClaimRef): Promise<void> {
  const own = ownInProgress(claim);
  await updateIf(
    deps.store,
    deps.store.table('idempotency'),
    { scopedKey: claim.scopedKey },
    {
      ...own,
      UpdateExpression: 'SET lockedUntil = :unlocked',
      ExpressionAttributeValues: { ...own.ExpressionAttributeValues, ':unlocked': 0 },
    },
  );
}

/** Frees the key after a refused attempt (an API error: nothing was done) so that the caller may retry it. */
export async function releaseIdempotencyKey(deps: Deps, claim: ClaimRef): Promise<void> {
  await deleteIf(deps.store, deps.store.table('idempotency'), { scopedKey: claim.scopedKey }, ownInProgress(claim));
}

/**
 * The keys of the workspace's stored responses whose body mentions one of `needles` (a visitor's ids, their
 * conversations), for erasure: one Query of the workspace's records of the last day (the `byWorkspace` index), the
 * bodies searched here.
 */
export async function findStoredResponsesMentioning(deps: Deps, workspaceId: string, needles: string[]): Promise<string[]> {
  const records = await queryAll<Pick<IdempotencyRecord, 'scopedKey' | 'response'>>(deps.store, {
    TableName: deps.store.table('idempotency'),
    IndexName: 'byWorkspace',
    KeyConditionExpression: 'workspaceId = :w',
    ExpressionAttributeValues: { ':w': workspaceId },
    ProjectionExpression: 'scopedKey, #response',
    ExpressionAttributeNames: { '#response': 'response' },
  });
  return records.filter(({ response }) => response && needles.some((needle) => response.body.includes(needle))).map(({ scopedKey }) => scopedKey);
}

/**
 * Forgets a stored response (an erased visitor's data in it): a retry with its key then runs the request again, which
 * finds the conversation erased.
 */
export const deleteStoredResponse = (deps: Deps, scopedKey: string) =>
  deleteIf(deps.store, deps.store.table('idempotency'), { scopedKey }, { ConditionExpression: 'attribute_exists(scopedKey)' });
