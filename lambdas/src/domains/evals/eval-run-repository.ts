import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { createOrFind, putIf, queryAll, readItem, updateIf } from '../../infra/store/dynamo';

/** The evals domain's eval runs and their results: every store call of the `evalRuns` and `evalResults` tables. */
export interface StoredEvalRun {
  evalRunId: string;
  workspaceId: string;
  agentId: string;
  draft: boolean;
  status: 'queued' | 'running' | 'completed' | 'failed';
  /** Present while queued or running (the `pending` index the sweeper reads). */
  pendingStatus?: 'queued' | 'running';
  /** The suite as it was when the run was asked for. */
  scenarioIds: string[];
  passed: number;
  failed: number;
  error?: string;
  /** How many times a consumer took it (a crashed attempt's retry goes on from the stored results). */
  attempts: number;
  usage: { inputTokens: number; outputTokens: number };
  diff?: { previousEvalRunId: string | null; fixed: string[]; broke: string[]; stillFailing: string[] };
  createdAt: string;
  startedAt?: string;
  /** Last sign of life of the attempt working on it (the sweeper re-enqueues one silent for too long). */
  touchedAt?: string;
  completedAt?: string;
}

export interface StoredResult {
  evalRunId: string;
  scenarioId: string;
  name: string;
  passed: boolean;
  error: string | null;
  expectations: { expectation: Record<string, unknown>; turn: number; outcome: 'passed' | 'failed' | 'not_graded'; reason: string | null }[];
  transcript: {
    role: 'user' | 'assistant' | 'tool';
    text: string;
    tool?: { name: string; args: Record<string, unknown>; effect: 'read' | 'act'; sandboxed: boolean };
  }[];
  usage: { inputTokens: number; outputTokens: number };
}

const runs = (deps: Deps) => deps.store.table('evalRuns');
const results = (deps: Deps) => deps.store.table('evalResults');

/** Stores a new eval run, or answers the one an earlier attempt of the same request stored under its id. */
export const createEvalRunOrFind = async (deps: Deps, run: StoredEvalRun): Promise<StoredEvalRun> =>
  (await createOrFind(deps.store, 'evalRuns', run, { evalRunId: run.evalRunId })).item;

export const readEvalRun = (deps: Deps, evalRunId: string): Promise<StoredEvalRun | undefined> =>
  readItem<StoredEvalRun>(deps.store, runs(deps), { evalRunId });

/**
 * Takes an eval run for one more attempt (at most `maxAttempts`): a queued one, or a running one whose attempt has
 * been quiet since before `quietSince` (it died). The run as taken, or undefined.
 */
export const takeEvalRunItem = (deps: Deps, evalRunId: string, at: string, quietSince: string, maxAttempts: number): Promise<StoredEvalRun | undefined> =>
  updateIf<StoredEvalRun>(
    deps.store,
    runs(deps),
    { evalRunId },
    {
      UpdateExpression: 'SET #s = :running, pendingStatus = :running, attempts = attempts + :one, startedAt = if_not_exists(startedAt, :at), touchedAt = :at',
      ConditionExpression: 'attempts < :max AND (#s = :queued OR (#s = :running AND (attribute_not_exists(touchedAt) OR touchedAt < :quiet)))',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':one': 1, ':at': at, ':quiet': quietSince, ':max': maxAttempts },
    },
  );

/** Notes that the attempt is alive (after each scenario), so the sweeper leaves it be. */
export const touchEvalRun = (deps: Deps, evalRunId: string, at: string): Promise<StoredEvalRun | undefined> =>
  updateIf<StoredEvalRun>(
    deps.store,
    runs(deps),
    { evalRunId },
    {
      UpdateExpression: 'SET touchedAt = :at',
      ConditionExpression: '#s = :running',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':at': at, ':running': 'running' },
    },
  );

/** Ends an unfinished eval run once: the run as ended, or undefined when it had ended already. */
export const endEvalRunItem = (
  deps: Deps,
  evalRunId: string,
  end: Pick<StoredEvalRun, 'passed' | 'failed' | 'usage' | 'completedAt'> & { status: 'completed' | 'failed'; error?: string; diff?: StoredEvalRun['diff'] },
): Promise<StoredEvalRun | undefined> =>
  updateIf<StoredEvalRun>(
    deps.store,
    runs(deps),
    { evalRunId },
    {
      UpdateExpression: `SET #s = :status, passed = :passed, failed = :failed, #u = :usage, completedAt = :at${end.error ? ', #e = :error' : ''}${end.diff ? ', #d = :diff' : ''} REMOVE pendingStatus`,
      ConditionExpression: '#s IN (:queued, :running)',
      ExpressionAttributeNames: { '#s': 'status', '#u': 'usage', ...(end.error ? { '#e': 'error' } : {}), ...(end.diff ? { '#d': 'diff' } : {}) },
      ExpressionAttributeValues: {
        ':status': end.status,
        ':passed': end.passed,
        ':failed': end.failed,
        ':usage': end.usage,
        ':at': end.completedAt,
        ':queued': 'queued',
        ':running': 'running',
        ...(end.error ? { ':error': end.error } : {}),
        ...(end.diff ? { ':diff': end.diff } : {}),
      },
    },
  );

/** An agent's eval runs, newest first. */
export async function queryEvalRuns(deps: Deps, agentId: string, limit: number): Promise<StoredEvalRun[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: runs(deps),
      IndexName: 'byAgent',
      KeyConditionExpression: 'agentId = :a',
      ExpressionAttributeValues: { ':a': agentId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as StoredEvalRun[];
}

/** Unfinished eval runs in `status` created before `before`, oldest first (the sweeper's read). */
export async function queryPendingEvalRuns(deps: Deps, status: 'queued' | 'running', before: string, limit: number): Promise<StoredEvalRun[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: runs(deps),
      IndexName: 'pending',
      KeyConditionExpression: 'pendingStatus = :s AND createdAt < :b',
      ExpressionAttributeValues: { ':s': status, ':b': before },
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as StoredEvalRun[];
}

/** Stores a scenario's result once (a retried attempt that played it again keeps the first). */
export const putResultOnce = (deps: Deps, result: StoredResult): Promise<boolean> =>
  putIf(deps.store, results(deps), result, { ConditionExpression: 'attribute_not_exists(scenarioId)' });

export const queryResults = (deps: Deps, evalRunId: string): Promise<StoredResult[]> =>
  queryAll<StoredResult>(deps.store, {
    TableName: results(deps),
    KeyConditionExpression: 'evalRunId = :r',
    ExpressionAttributeValues: { ':r': evalRunId },
    ConsistentRead: true,
  });
