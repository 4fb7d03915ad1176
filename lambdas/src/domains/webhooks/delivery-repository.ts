import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomBase62 } from '@service/shared';
import DataLoader from 'dataloader';
import type { Deps } from '../../infra/deps';
import { MAX_BATCH_WRITE, writeAll } from '../../infra/store/batch-write';
import { deleteIf, putIf, queryAll, updateIf, type Store } from '../../infra/store/dynamo';
import type { PlatformEvent } from './events';
import type { EventType } from './subscriptions';

/**
 * The webhooks domain's delivery repository: every store call of the webhookDeliveries table, each conditional write
 * answering its outcome as a value (putIf, updateIf). The table holds two kinds of items per subscription (partition `subscriptionId`):
 * - a delivery (`deliveryId` = `dlv#<eventId>#<seq>`, seq `0` for the first, `r…` for each redelivery): the event's
 *   signed-once body and the state machine of its attempts, stored once its first attempt has ended (until then the
 *   queue message carrying that attempt stands for it, see first-attempts.ts). It is the source of truth from then on;
 *   queue messages only wake it up.
 * - an attempt log entry (`deliveryId` = `att#<time>#<eventId>#<seq>#<attempt>`): one per HTTP attempt made, so the
 *   delivery log is one Query, newest first.
 * And, in a partition of its own (`claim#<queue message id>`), the claim on the first attempts that message carries.
 */
export type DeliveryState = 'pending' | 'sending' | 'delivered' | 'failed' | 'cancelled';

export interface StoredDelivery {
  subscriptionId: string;
  deliveryId: string;
  kind: 'delivery';
  workspaceId: string;
  eventId: string;
  event: PlatformEvent;
  /** The exact body every attempt sends (same event id and bytes each time; only the signature is fresh). */
  payload: string;
  redelivery: boolean;
  /** The attempt that is due (pending), in flight (sending), or was the last one. 1-based. */
  attempt: number;
  state: DeliveryState;
  /** Epoch ms when `attempt` is due. */
  dueAt: number;
  /** Who is sending `attempt` and until when (a crashed sender's lease expires and another may take over). */
  claimToken?: string;
  leaseUntil?: number;
  /** The queue message whose handler scheduled the current attempt (only its redelivery re-sends the wake-up). */
  settledBy?: string;
  /** Hops taken towards `dueAt` by the current attempt's wake-up, and the message that took the last one. */
  hop: number;
  hopBy?: string;
  lastError?: string;
  createdAt: string;
  expiresAtEpoch: number;
  /** The conversation a conversation event is about (the sparse `byConversation` index: a visitor's export and erasure). */
  conversationId?: string;
}

export interface AttemptLogEntry<E extends PlatformEvent = EventType> {
  subscriptionId: string;
  deliveryId: string;
  kind: 'attempt';
  eventId: string;
  event: E;
  redelivery: boolean;
  attempt: number;
  attemptedAt: string;
  httpStatus?: number;
  durationMs: number;
  error?: string;
  ok: boolean;
  /** The body sent: the delivery's payload, kept with its attempt for the delivery log. */
  body?: string;
  expiresAtEpoch: number;
  conversationId?: string;
}

/** Delivery records and their log are kept 30 days (TTL sweeps them in AWS; nothing relies on it). */
const RETENTION_SECONDS = 30 * 24 * 3600;
const expiresAt = (now: Date) => Math.floor(now.getTime() / 1000) + RETENTION_SECONDS;

export const deliveryKey = (eventId: string, seq: string) => `dlv#${eventId}#${seq}`;
export const FIRST_DELIVERY_SEQ = '0';
export const newRedeliverySeq = () => `r${randomBase62(12)}`;

const table = (deps: Deps) => deps.store.table('webhookDeliveries');

/** The seq part of a delivery's key. */
export const seqOf = (delivery: Pick<StoredDelivery, 'deliveryId'>) => delivery.deliveryId.slice(delivery.deliveryId.lastIndexOf('#') + 1);

/** The conversation an event's payload is about (`data.conversation_id` of the conversation events), if any. */
function conversationOf(payload: string): string | undefined {
  const { data } = JSON.parse(payload) as { data?: { conversation_id?: unknown } };
  return typeof data?.conversation_id === 'string' ? data.conversation_id : undefined;
}

/** A delivery started at `now`, its first attempt due at once. */
export function newDelivery(
  now: Date,
  input: { workspaceId: string; subscriptionId: string; eventId: string; event: PlatformEvent; payload: string; seq: string },
): StoredDelivery {
  const conversationId = conversationOf(input.payload);
  return {
    subscriptionId: input.subscriptionId,
    deliveryId: deliveryKey(input.eventId, input.seq),
    kind: 'delivery',
    workspaceId: input.workspaceId,
    eventId: input.eventId,
    event: input.event,
    payload: input.payload,
    redelivery: input.seq !== FIRST_DELIVERY_SEQ,
    attempt: 1,
    state: 'pending',
    hop: 0,
    dueAt: now.getTime(),
    createdAt: now.toISOString(),
    expiresAtEpoch: expiresAt(now),
    ...(conversationId ? { conversationId } : {}),
  };
}

/** Stores a new delivery; returns the stored one when a delivery with that key already exists (a repeated emit). */
export async function putDelivery(deps: Deps, delivery: StoredDelivery): Promise<StoredDelivery> {
  const stored = await putIf(deps.store, table(deps), delivery, { ConditionExpression: 'attribute_not_exists(deliveryId)' });
  return stored ? delivery : ((await getDelivery(deps, delivery.subscriptionId, delivery.deliveryId)) ?? delivery);
}

export async function getDelivery(deps: Deps, subscriptionId: string, deliveryId: string): Promise<StoredDelivery | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: table(deps), Key: { subscriptionId, deliveryId }, ConsistentRead: true }));
  return result.Item as StoredDelivery | undefined;
}

/**
 * Claims an attempt for sending: succeeds for exactly one caller while the attempt is pending and due, or when a
 * previous sender's lease ran out (that sender died mid-attempt). This conditional write is what keeps a redelivered
 * message from sending an attempt twice. Returns the claimed delivery, or undefined when it is not claimable now.
 */
export async function claimAttempt(
  deps: Deps,
  key: { subscriptionId: string; deliveryId: string; attempt: number },
  token: string,
  leaseMs: number,
): Promise<StoredDelivery | undefined> {
  const now = deps.now().getTime();
  return updateDeliveryIf(
    deps,
    key,
    'SET #state = :sending, claimToken = :token, leaseUntil = :lease',
    'attempt = :attempt AND ((#state = :pending AND dueAt <= :now) OR (#state = :sending AND leaseUntil <= :now))',
    { ':sending': 'sending', ':pending': 'pending', ':token': token, ':lease': now + leaseMs, ':attempt': key.attempt, ':now': now },
  );
}

/** A conditional update of a delivery item (`#state` names its state); the new item, or undefined when the condition failed. */
async function updateDeliveryIf(
  deps: Deps,
  key: { subscriptionId: string; deliveryId: string },
  update: string,
  condition: string,
  values: Record<string, unknown>,
): Promise<StoredDelivery | undefined> {
  return updateIf<StoredDelivery>(
    deps.store,
    table(deps),
    { subscriptionId: key.subscriptionId, deliveryId: key.deliveryId },
    {
      UpdateExpression: update,
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: values,
    },
  );
}

/** BatchGetItem's limit of keys in one call. */
const MAX_BATCH_GET = 100;

/** The deliveries stored under these keys (consistent reads, BatchGetItem calls of at most 100 keys), by delivery id. */
export async function getDeliveries(deps: Deps, keys: Array<{ subscriptionId: string; deliveryId: string }>): Promise<Map<string, StoredDelivery>> {
  const tableName = table(deps);
  const found = new Map<string, StoredDelivery>();
  for (let start = 0; start < keys.length; start += MAX_BATCH_GET) {
    let pending: Record<string, unknown>[] = keys.slice(start, start + MAX_BATCH_GET).map(({ subscriptionId, deliveryId }) => ({ subscriptionId, deliveryId }));
    while (pending.length > 0) {
      const result = await deps.store.doc.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of (result.Responses?.[tableName] ?? []) as StoredDelivery[]) found.set(`${item.subscriptionId}\n${item.deliveryId}`, item);
      pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return found;
}

/**
 * Claims the first attempts one queue message carries (see first-attempts.ts) for this sender: succeeds for exactly
 * one caller, unless a previous holder's lease is still live. Its item is keyed by the queue message id, which every
 * redelivery of that message keeps.
 */
export async function claimFirstAttempts(deps: Deps, messageId: string, token: string, leaseMs: number): Promise<boolean> {
  const now = deps.now();
  const claimed = await updateIf(
    deps.store,
    table(deps),
    { subscriptionId: `claim#${messageId}`, deliveryId: 'claim' },
    {
      UpdateExpression: 'SET claimToken = :token, leaseUntil = :lease, expiresAtEpoch = :expires',
      ConditionExpression: 'attribute_not_exists(leaseUntil) OR leaseUntil <= :now',
      ExpressionAttributeValues: { ':token': token, ':lease': now.getTime() + leaseMs, ':now': now.getTime(), ':expires': expiresAt(now) },
    },
  );
  return claimed !== undefined;
}

/** How an attempt ended: the next attempt and when it is due, or a final state. */
export type AttemptOutcome =
  | { state: 'pending'; attempt: number; dueAt: number; error: string; settledBy: string }
  | { state: 'delivered' }
  | { state: 'failed' | 'cancelled'; error: string };

/** An HTTP attempt made: when, and what came of it. */
export interface AttemptMade {
  attemptedAt: Date;
  httpStatus?: number;
  durationMs: number;
  error?: string;
  ok: boolean;
}

/** A first attempt's delivery (never claimed on its own) as its outcome leaves it. */
function settled(delivery: StoredDelivery, outcome: AttemptOutcome): StoredDelivery {
  if (outcome.state === 'pending') {
    const { error, ...next } = outcome;
    return { ...delivery, ...next, lastError: error };
  }
  return outcome.state === 'delivered' ? { ...delivery, state: outcome.state } : { ...delivery, state: outcome.state, lastError: outcome.error };
}

/**
 * Stores the first attempts of one queue message as they ended, unconditionally, in BatchWriteItem calls: each
 * delivery's record and, for an attempt made, its log entry. The message's first attempts are claimed together
 * (claimFirstAttempts), so no other sender writes these records before this lands; the next attempt of a failed one
 * is enqueued only after it.
 */
export async function putFirstAttempts(deps: Deps, attempts: Array<{ delivery: StoredDelivery; made?: AttemptMade; outcome: AttemptOutcome }>): Promise<void> {
  const items = attempts.flatMap(({ delivery, made, outcome }) => [settled(delivery, outcome), ...(made ? [attemptLogEntry(delivery, made)] : [])]);
  await writeAll(
    deps.store,
    table(deps),
    items.map((item) => ({ PutRequest: { Item: item } })),
  );
}

/**
 * Records the outcome of the claimed attempt: the next attempt and when it is due, or a final state.
 * Conditional on still holding the claim; false means another sender took over (this one overran its lease).
 */
export async function settleAttempt(deps: Deps, delivery: StoredDelivery, token: string, next: AttemptOutcome): Promise<boolean> {
  const values: Record<string, unknown> = { ':state': next.state, ':token': token };
  let update = 'SET #state = :state REMOVE claimToken, leaseUntil';
  if (next.state === 'pending') {
    update =
      'SET #state = :state, attempt = :attempt, dueAt = :dueAt, lastError = :error, settledBy = :settledBy, hop = :zero REMOVE claimToken, leaseUntil, hopBy';
    Object.assign(values, { ':attempt': next.attempt, ':dueAt': next.dueAt, ':error': next.error, ':settledBy': next.settledBy, ':zero': 0 });
  } else if (next.state !== 'delivered') {
    update = 'SET #state = :state, lastError = :error REMOVE claimToken, leaseUntil';
    values[':error'] = next.error;
  }
  return (await updateDeliveryIf(deps, delivery, update, 'claimToken = :token', values)) !== undefined;
}

/**
 * Takes hop number `hop` of a wake-up that arrived early. Only one copy of a duplicated message may continue the chain
 * (else duplicates would double at every hop); the redelivery of the message that took the hop may take it again,
 * in case its handler died before sending the next hop.
 */
export async function takeHop(deps: Deps, delivery: StoredDelivery, hop: number, messageId: string): Promise<boolean> {
  const taken = await updateDeliveryIf(
    deps,
    delivery,
    'SET hop = :next, hopBy = :message',
    'attempt = :attempt AND #state = :pending AND (hop = :hop OR (hop = :next AND hopBy = :message))',
    { ':next': hop + 1, ':message': messageId, ':attempt': delivery.attempt, ':pending': 'pending', ':hop': hop },
  );
  return taken !== undefined;
}

/**
 * Log entries written in one turn of the event loop (the attempts of a batch that end together, and of the batches
 * beside it) go to the store in one BatchWriteItem: the entry is a new item of its own, so nothing needs a condition.
 */
const logWriters = new WeakMap<Store, DataLoader<AttemptLogEntry<PlatformEvent>, void>>();

function logWriter(deps: Deps): DataLoader<AttemptLogEntry<PlatformEvent>, void> {
  let writer = logWriters.get(deps.store);
  if (!writer) {
    const [store, tableName] = [deps.store, table(deps)];
    writer = new DataLoader(
      async (entries) => {
        // One request per key (a batch may not name a key twice): a repeated entry is the same attempt, written once.
        const byKey = new Map(entries.map((entry) => [`${entry.subscriptionId}\n${entry.deliveryId}`, entry]));
        await writeAll(
          store,
          tableName,
          [...byKey.values()].map((entry) => ({ PutRequest: { Item: entry } })),
        );
        return entries.map(() => undefined);
      },
      { cache: false, maxBatchSize: MAX_BATCH_WRITE, batchScheduleFn: (write) => setImmediate(write) },
    );
    logWriters.set(deps.store, writer);
  }
  return writer;
}

function attemptLogEntry(delivery: StoredDelivery, attempt: AttemptMade): AttemptLogEntry<PlatformEvent> {
  return {
    subscriptionId: delivery.subscriptionId,
    deliveryId: `att#${String(attempt.attemptedAt.getTime()).padStart(15, '0')}#${delivery.eventId}#${seqOf(delivery)}#${delivery.attempt}`,
    kind: 'attempt',
    eventId: delivery.eventId,
    event: delivery.event,
    redelivery: delivery.redelivery,
    attempt: delivery.attempt,
    attemptedAt: attempt.attemptedAt.toISOString(),
    ...(attempt.httpStatus !== undefined ? { httpStatus: attempt.httpStatus } : {}),
    durationMs: attempt.durationMs,
    ...(attempt.error !== undefined ? { error: attempt.error } : {}),
    ok: attempt.ok,
    body: delivery.payload,
    expiresAtEpoch: expiresAt(attempt.attemptedAt),
    ...(delivery.conversationId ? { conversationId: delivery.conversationId } : {}),
  };
}

export async function logAttempt(deps: Deps, delivery: StoredDelivery, attempt: AttemptMade): Promise<void> {
  await logWriter(deps).load(attemptLogEntry(delivery, attempt));
}

/**
 * The most recent attempts to a target, newest first. A webhook subscription's log holds only the webhook events it
 * subscribed to (the default type); a skill's (`skill#…`) holds any platform event.
 */
export async function listAttempts<E extends PlatformEvent = EventType>(deps: Deps, targetId: string, limit: number): Promise<AttemptLogEntry<E>[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'subscriptionId = :s AND begins_with(deliveryId, :prefix)',
      ExpressionAttributeValues: { ':s': targetId, ':prefix': 'att#' },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as AttemptLogEntry<E>[];
}

/** A delivery or attempt-log item of a conversation's events. */
export type DeliveryTrace = Pick<StoredDelivery, 'subscriptionId' | 'deliveryId' | 'eventId' | 'event' | 'createdAt'> & {
  kind: 'delivery' | 'attempt';
  payload?: string;
  body?: string;
};

/** Every delivery and attempt-log entry of the conversation's events (the `byConversation` index): export and erasure only. */
export const queryConversationDeliveries = (deps: Deps, conversationId: string): Promise<DeliveryTrace[]> =>
  queryAll<DeliveryTrace>(deps.store, {
    TableName: table(deps),
    IndexName: 'byConversation',
    KeyConditionExpression: 'conversationId = :c',
    ExpressionAttributeValues: { ':c': conversationId },
  });

export const deleteDeliveryItem = (deps: Deps, key: Pick<StoredDelivery, 'subscriptionId' | 'deliveryId'>) =>
  deleteIf(
    deps.store,
    table(deps),
    { subscriptionId: key.subscriptionId, deliveryId: key.deliveryId },
    { ConditionExpression: 'attribute_exists(deliveryId)' },
  );
