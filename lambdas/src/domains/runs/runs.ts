import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError, newRunId, type schemas } from '@service/shared';
import type { z } from 'zod';
import type { Deps } from '../../infra/deps';
import { createOrFind, ifConditionHolds } from '../../infra/store/dynamo';
import type { Action } from '../../infra/store/idempotency';

type RunStatus = (typeof schemas.RUN_STATUSES)[number];
type Autonomy = (typeof schemas.AUTONOMY_LEVELS)[number];

export interface StoredRun {
  runId: string;
  workspaceId: string;
  agentId: string;
  status: RunStatus;
  autonomy: Autonomy;
  instruction: string;
  data?: Record<string, unknown>;
  schema?: Record<string, unknown>;
  resultText?: string;
  output?: Record<string, unknown> | null;
  outputError?: string | null;
  error?: string;
  usage: { inputTokens: number; outputTokens: number };
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  /** False while usage and webhooks of a finished run are still to be recorded. */
  followUpsDone?: boolean;
  /** Set once the run's queue message was sent; a queued run without it is the sweeper's to enqueue. */
  enqueuedAt?: string;
  /** Who started it: absent for the REST API; `mcp` with the connection for the MCP access point (the audit trail). */
  source?: 'mcp';
  connectionId?: string;
}

/**
 * The stored form: caller JSON (`data`, `schema`) and the model's `output` are kept as JSON text, so any key
 * (`constructor`, `__proto__`) and any depth the API accepted is stored as is, never marshalled as nested maps.
 * `pendingStatus` mirrors `status` while the run is queued or running (the sweeper's sparse index).
 */
type RunItem = Omit<StoredRun, 'data' | 'schema' | 'output'> & { dataJson?: string; schemaJson?: string; outputJson?: string | null; pendingStatus?: RunStatus };

const PENDING: RunStatus[] = ['queued', 'running'];

function toItem({ data, schema, output, ...run }: StoredRun): RunItem {
  return {
    ...run,
    ...(data ? { dataJson: JSON.stringify(data) } : {}),
    ...(schema ? { schemaJson: JSON.stringify(schema) } : {}),
    ...(output !== undefined ? { outputJson: output === null ? null : JSON.stringify(output) } : {}),
    ...(PENDING.includes(run.status) ? { pendingStatus: run.status } : {}),
  };
}

function fromItem({ dataJson, schemaJson, outputJson, pendingStatus: _pending, ...run }: RunItem): StoredRun {
  return {
    ...run,
    ...(dataJson ? { data: JSON.parse(dataJson) as Record<string, unknown> } : {}),
    ...(schemaJson ? { schema: JSON.parse(schemaJson) as Record<string, unknown> } : {}),
    ...(outputJson !== undefined ? { output: outputJson === null ? null : (JSON.parse(outputJson) as Record<string, unknown>) } : {}),
  };
}

export const DEFAULT_AUTONOMY: Autonomy = 'read_only';

export function toRunResponse(run: StoredRun): z.input<typeof schemas.Run> {
  return {
    run_id: run.runId,
    agent_id: run.agentId,
    status: run.status,
    autonomy: run.autonomy,
    instruction: run.instruction,
    result_text: run.resultText ?? null,
    output: run.output ?? null,
    output_error: run.outputError ?? null,
    error: run.error ?? null,
    usage: { input_tokens: run.usage.inputTokens, output_tokens: run.usage.outputTokens },
    created_at: run.createdAt,
    completed_at: run.completedAt ?? null,
  };
}

type NewRun = {
  workspaceId: string;
  agentId: string;
  instruction: string;
  autonomy?: Autonomy;
  data?: Record<string, unknown>;
  schema?: Record<string, unknown>;
  origin?: { source: 'mcp'; connectionId: string };
};

function newRun(input: NewRun, action: Action): StoredRun {
  return {
    runId: newRunId(action.seed),
    workspaceId: input.workspaceId,
    agentId: input.agentId,
    status: 'queued',
    autonomy: input.autonomy ?? DEFAULT_AUTONOMY,
    instruction: input.instruction,
    ...(input.data ? { data: input.data } : {}),
    ...(input.schema ? { schema: input.schema } : {}),
    ...(input.origin ? { source: input.origin.source, connectionId: input.origin.connectionId } : {}),
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: action.at.toISOString(),
  };
}

/**
 * Sends the message of a queued run that has none yet, then marks it sent. The run is always written first: a
 * message never points at nothing, and a crash between the two leaves a queued run without `enqueuedAt`, which a
 * retry of the same command or the sweeper sends. If the send fails the run is failed with the reason.
 */
export async function ensureEnqueued(deps: Deps, run: StoredRun): Promise<StoredRun> {
  if (run.status !== 'queued' || run.enqueuedAt) return run;
  try {
    await deps.queue.send('runs', { runId: run.runId });
  } catch (error) {
    await failRun(deps, run.runId, 'The run could not be queued');
    throw error;
  }
  const enqueuedAt = deps.now().toISOString();
  await deps.store.doc.send(
    new UpdateCommand({ TableName: deps.store.table('runs'), Key: { runId: run.runId }, UpdateExpression: 'SET enqueuedAt = :at', ExpressionAttributeValues: { ':at': enqueuedAt } }),
  );
  return { ...run, enqueuedAt };
}

/** Stores the run as `queued` (or finds the one an earlier attempt of the same action stored), then enqueues it. */
export async function enqueueNewRun(deps: Deps, input: NewRun, action: Action = { at: deps.now() }): Promise<StoredRun> {
  const run = newRun(input, action);
  const { item } = await createOrFind(deps.store, 'runs', toItem(run), { runId: run.runId });
  return ensureEnqueued(deps, fromItem(item));
}

export async function getRun(deps: Deps, workspaceId: string, runId: string): Promise<StoredRun> {
  const run = await findRun(deps, runId);
  if (!run || run.workspaceId !== workspaceId) throw new DomainError('RUN_NOT_FOUND', `No run ${runId} in this workspace`, { field: 'run_id' });
  return run;
}

export async function listRuns(deps: Deps, workspaceId: string, agentId: string, limit: number): Promise<StoredRun[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('runs'),
      IndexName: 'byAgent',
      KeyConditionExpression: 'agentId = :a',
      ExpressionAttributeValues: { ':a': agentId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return ((result.Items ?? []) as RunItem[]).filter((run) => run.workspaceId === workspaceId).map(fromItem);
}

/** Reads a run by id alone: the queue consumer has no workspace to scope by (the message came from our own queue). */
export async function findRun(deps: Deps, runId: string): Promise<StoredRun | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('runs'), Key: { runId }, ConsistentRead: true }));
  return result.Item ? fromItem(result.Item as RunItem) : undefined;
}

/** Runs still `status` (queued or running) created before `before`, oldest first: the sweeper's candidates. */
export async function listPendingRuns(deps: Deps, status: 'queued' | 'running', before: Date, limit: number): Promise<StoredRun[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('runs'),
      IndexName: 'pending',
      KeyConditionExpression: 'pendingStatus = :s AND createdAt < :before',
      ExpressionAttributeValues: { ':s': status, ':before': before.toISOString() },
      Limit: limit,
    }),
  );
  return ((result.Items ?? []) as RunItem[]).map(fromItem);
}

/** Moves a run to `to` only from one of `from`; false when it was not in such a state (cancelled, finished). */
async function transition(deps: Deps, runId: string, from: RunStatus[], to: RunStatus, set: Record<string, unknown> = {}): Promise<boolean> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':to': to };
  const assignments = ['#status = :to', ...(PENDING.includes(to) ? ['pendingStatus = :to'] : [])];
  Object.entries(set).forEach(([field, value], index) => {
    names[`#f${index}`] = field;
    values[`:v${index}`] = value;
    assignments.push(`#f${index} = :v${index}`);
  });
  from.forEach((status, index) => (values[`:from${index}`] = status));
  const applied = await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('runs'),
        Key: { runId },
        UpdateExpression: `SET ${assignments.join(', ')}${PENDING.includes(to) ? '' : ' REMOVE pendingStatus'}`,
        ConditionExpression: `#status IN (${from.map((_, index) => `:from${index}`).join(', ')})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
  return applied !== undefined;
}

/**
 * How long a runner owns a running run (the runner's own timeout). Messages are delivered at least once and a
 * crash may send one twice, so a second delivery takes a run over only once the owner must be gone.
 */
export const RUN_LEASE_MS = 5 * 60_000;

/** Takes the run for this delivery: false when it is finished, cancelled, or another runner holds its lease. */
export async function markRunning(deps: Deps, runId: string): Promise<boolean> {
  const now = deps.now();
  const taken = await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('runs'),
        Key: { runId },
        UpdateExpression: 'SET #status = :running, pendingStatus = :running, startedAt = :now',
        ConditionExpression: '#status = :queued OR (#status = :running AND startedAt < :leaseStart)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':now': now.toISOString(), ':leaseStart': new Date(now.getTime() - RUN_LEASE_MS).toISOString() },
      }),
    ),
  );
  return taken !== undefined;
}

/** A failed attempt gives the run back, so that the queue's next delivery may take it at once. */
export const requeueRun = (deps: Deps, runId: string) => transition(deps, runId, ['running'], 'queued');

/**
 * What a model writes is unbounded; the run item is not (DynamoDB: 400 KB). With the request capped at 100 KB,
 * these bounds keep every finished run writable.
 */
export const RESULT_TEXT_MAX_CHARS = 32_000;
export const OUTPUT_MAX_BYTES = 128 * 1024;

type Outcome = { resultText: string; output: Record<string, unknown> | null; outputError: string | null; usage: StoredRun['usage'] };

function bounded(outcome: Outcome): Outcome {
  const resultText = outcome.resultText.length > RESULT_TEXT_MAX_CHARS ? `${outcome.resultText.slice(0, RESULT_TEXT_MAX_CHARS)}… [truncated]` : outcome.resultText;
  const tooLarge = outcome.output !== null && Buffer.byteLength(JSON.stringify(outcome.output)) > OUTPUT_MAX_BYTES;
  return tooLarge
    ? { ...outcome, resultText, output: null, outputError: `The output was larger than ${OUTPUT_MAX_BYTES / 1024} KB` }
    : { ...outcome, resultText };
}

/** Stores the outcome (bounded) and returns what was stored, or undefined when the run was no longer running. */
export async function completeRun(deps: Deps, runId: string, outcome: Outcome): Promise<Outcome | undefined> {
  const stored = bounded(outcome);
  const { resultText, output, outputError, usage } = stored;
  const done = await transition(deps, runId, ['running'], 'completed', {
    resultText,
    outputJson: output === null ? null : JSON.stringify(output),
    outputError,
    usage,
    completedAt: deps.now().toISOString(),
    followUpsDone: false,
  });
  return done ? stored : undefined;
}

export const failRun = (deps: Deps, runId: string, reason: string) =>
  transition(deps, runId, ['queued', 'running'], 'failed', { error: reason, completedAt: deps.now().toISOString(), followUpsDone: false });

/** Only a run still waiting in the queue can be cancelled; a running one finishes. */
export const cancelRun = (deps: Deps, runId: string) => transition(deps, runId, ['queued'], 'cancelled', { completedAt: deps.now().toISOString() });

/** Usage and webhooks of a finished run were handled; a redelivered message need not repeat them. */
export async function markFollowUpsDone(deps: Deps, runId: string): Promise<void> {
  await deps.store.doc.send(
    new UpdateCommand({ TableName: deps.store.table('runs'), Key: { runId }, UpdateExpression: 'SET followUpsDone = :yes', ExpressionAttributeValues: { ':yes': true } }),
  );
}
