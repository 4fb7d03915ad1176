import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { createOrFind, updateIf, type ConditionalUpdate } from '../../infra/store/dynamo';

/**
 * The runs domain's repository: every store call of the `runs` table, on items in their stored form (runs.ts maps
 * them); a failed condition comes back as a value.
 */
const table = (deps: Deps) => deps.store.table('runs');

/** Stores the run item, or answers the one stored under its id (a resumed action). */
export const createRunItemOrFind = async <T extends { runId: string }>(deps: Deps, item: T): Promise<T> =>
  (await createOrFind(deps.store, 'runs', item, { runId: item.runId })).item;

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
const updateRunItemIf = <T>(deps: Deps, runId: string, update: ConditionalUpdate): Promise<T | undefined> =>
  updateIf<T>(deps.store, table(deps), { runId }, update);

/** Updates a run under a condition; false when the condition failed. */
const updateRunIf = async (deps: Deps, runId: string, update: ConditionalUpdate): Promise<boolean> =>
  (await updateRunItemIf(deps, runId, update)) !== undefined;

/** The statuses mirrored in `pendingStatus` (the sparse `pending` index the sweeper reads). */
export const PENDING_STATUSES: readonly string[] = ['queued', 'running', 'requires_action'];

/**
 * What a transition requires of the run besides its status: held under this lease; held under this lease and free
 * to be run again (never acted, no stop asked); its lease still the one seen (`leaseUntil`, or none at all); or a
 * stop asked for.
 */
export type RunHold = { leaseId: string } | { requeueUnder: string } | { leaseSeen: string | undefined } | { stopRequested: true };

function holdCondition(hold: RunHold): { expression: string; values: Record<string, unknown> } {
  if ('leaseId' in hold) return { expression: 'leaseId = :leaseId', values: { ':leaseId': hold.leaseId } };
  if ('requeueUnder' in hold)
    return {
      expression: 'leaseId = :leaseId AND attribute_not_exists(actedAt) AND attribute_not_exists(cancelRequestedAt)',
      values: { ':leaseId': hold.requeueUnder },
    };
  if ('leaseSeen' in hold)
    return hold.leaseSeen
      ? { expression: 'leaseUntil = :seen', values: { ':seen': hold.leaseSeen } }
      : { expression: 'attribute_not_exists(leaseUntil)', values: {} };
  return { expression: 'attribute_exists(cancelRequestedAt)', values: {} };
}

/** Moves a run to `to` only from one of `from` (and under `hold`), setting `set`; false when it was not in such a state. */
export async function transitionRunItem(
  deps: Deps,
  runId: string,
  from: readonly string[],
  to: string,
  set: Record<string, unknown>,
  hold?: RunHold,
): Promise<boolean> {
  const pending = PENDING_STATUSES.includes(to);
  const condition = hold && holdCondition(hold);
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':to': to, ...condition?.values };
  const assignments = ['#status = :to', ...(pending ? ['pendingStatus = :to'] : [])];
  Object.entries(set).forEach(([field, value], index) => {
    names[`#f${index}`] = field;
    values[`:v${index}`] = value;
    assignments.push(`#f${index} = :v${index}`);
  });
  from.forEach((status, index) => (values[`:from${index}`] = status));
  const inFrom = `#status IN (${from.map((_, index) => `:from${index}`).join(', ')})`;
  return updateRunIf(deps, runId, {
    UpdateExpression: `SET ${assignments.join(', ')}${pending ? '' : ' REMOVE pendingStatus'}`,
    ConditionExpression: condition ? `${inFrom} AND ${condition.expression}` : inFrom,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/**
 * Takes a run under a new lease (`leaseId` until `until`) and counts the attempt: a queued run, or a running one whose
 * lease lapsed before `now`, that has not begun acting and has had fewer than `maxAttempts`, and was not asked to
 * stop. The run item as taken, or undefined.
 */
export const takeRunItem = <T>(deps: Deps, runId: string, lease: { leaseId: string; until: string; now: string; maxAttempts: number }) =>
  updateRunItemIf<T>(deps, runId, {
    UpdateExpression: 'SET #status = :running, pendingStatus = :running, startedAt = :now, leaseId = :id, leaseUntil = :until ADD attempts :one',
    ConditionExpression:
      '(#status = :queued OR (#status = :running AND leaseUntil < :now AND attribute_not_exists(actedAt) AND attempts < :maxAttempts)) AND attribute_not_exists(cancelRequestedAt)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':running': 'running',
      ':queued': 'queued',
      ':now': lease.now,
      ':id': lease.leaseId,
      ':until': lease.until,
      ':one': 1,
      ':maxAttempts': lease.maxAttempts,
    },
  });

/** Extends the lease of a running run held under `leaseId` to `until`; the run item, or undefined when it is no longer held so. */
export const renewRunLease = <T>(deps: Deps, runId: string, leaseId: string, until: string) =>
  updateRunItemIf<T>(deps, runId, {
    UpdateExpression: 'SET leaseUntil = :until',
    ConditionExpression: '#status = :running AND leaseId = :leaseId',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':running': 'running', ':until': until, ':leaseId': leaseId },
  });

/** Sets `actedAt` (once) on a running run held under `leaseId`; false when it is no longer held so. */
export const markRunActing = (deps: Deps, runId: string, leaseId: string, at: string) =>
  updateRunIf(deps, runId, {
    UpdateExpression: 'SET actedAt = if_not_exists(actedAt, :now)',
    ConditionExpression: '#status = :running AND leaseId = :leaseId',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':running': 'running', ':now': at, ':leaseId': leaseId },
  });

/** Sets the stop request (the first one's time and author stay) of a running run; false unless it is running. */
export const requestRunItemStop = (deps: Deps, runId: string, by: string, at: string) =>
  updateRunIf(deps, runId, {
    UpdateExpression: 'SET cancelRequestedAt = if_not_exists(cancelRequestedAt, :now), cancelledBy = if_not_exists(cancelledBy, :by)',
    ConditionExpression: '#status = :running',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':running': 'running', ':now': at, ':by': by },
  });

/** What a parked run stores (approvals.ts). */
export interface RunParking {
  pendingAction: unknown;
  conversationJson: string;
  usage: unknown;
  stepsCount: number;
}

/**
 * Parks a running run held under `leaseId` and not asked to stop: `requires_action` with `parking`, its attempts and
 * acting mark reset. False otherwise.
 */
export const parkRunItem = (deps: Deps, runId: string, leaseId: string, parking: RunParking) =>
  updateRunIf(deps, runId, {
    UpdateExpression:
      'SET #status = :waiting, pendingStatus = :waiting, pendingAction = :action, conversationJson = :conversation, #usage = :usage, stepsCount = :steps, attempts = :zero, followUpsDone = :false REMOVE actedAt, enqueuedAt',
    ConditionExpression: '#status = :running AND leaseId = :leaseId AND attribute_not_exists(cancelRequestedAt)',
    ExpressionAttributeNames: { '#status': 'status', '#usage': 'usage' },
    ExpressionAttributeValues: {
      ':waiting': 'requires_action',
      ':running': 'running',
      ':leaseId': leaseId,
      ':action': parking.pendingAction,
      ':conversation': parking.conversationJson,
      ':usage': parking.usage,
      ':steps': parking.stepsCount,
      ':zero': 0,
      ':false': false,
    },
  });

/**
 * Records the decision on the pending action `approvalId` (unanswered, not expired at `at`) and puts the run back in
 * the queue, in one write; false when it no longer waits for that answer.
 */
export const answerRunItemApproval = (deps: Deps, runId: string, approvalId: string, answer: { decision: string; by: string; note?: string; at: string }) =>
  updateRunIf(deps, runId, {
    UpdateExpression:
      'SET #status = :queued, pendingStatus = :queued, pendingAction.decision = :decision, pendingAction.answeredBy = :by, pendingAction.answeredAt = :now' +
      (answer.note ? ', pendingAction.note = :note' : ''),
    ConditionExpression:
      '#status = :waiting AND pendingAction.approvalId = :approvalId AND attribute_not_exists(pendingAction.decision) AND pendingAction.expiresAt > :now',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':queued': 'queued',
      ':waiting': 'requires_action',
      ':decision': answer.decision,
      ':by': answer.by,
      ':now': answer.at,
      ':approvalId': approvalId,
      ...(answer.note ? { ':note': answer.note } : {}),
    },
  });

/** Ends a run waiting for an unanswered approval `cancelled` (by `by` at `at`, with `reason` as its error); false when it no longer waits so. */
export const endWaitingRunItem = (deps: Deps, runId: string, cancel: { by: string; at: string; reason?: string }) =>
  updateRunIf(deps, runId, {
    UpdateExpression: `SET #status = :cancelled, cancelRequestedAt = :now, cancelledBy = :by, completedAt = :now, followUpsDone = :false${cancel.reason ? ', #error = :reason' : ''} REMOVE pendingStatus`,
    ConditionExpression: '#status = :waiting AND attribute_not_exists(pendingAction.decision)',
    ExpressionAttributeNames: { '#status': 'status', ...(cancel.reason ? { '#error': 'error' } : {}) },
    ExpressionAttributeValues: {
      ':cancelled': 'cancelled',
      ':waiting': 'requires_action',
      ':now': cancel.at,
      ':by': cancel.by,
      ':false': false,
      ...(cancel.reason ? { ':reason': cancel.reason } : {}),
    },
  });
