import { DomainError, randomBase62, type BodyOf, type DataOf } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { Action } from '../../infra/store/idempotency';
import { findAgent } from '../agents/agents';
import { createEvalRunOrFind, queryEvalRuns, queryResults, readEvalRun, type StoredEvalRun, type StoredResult } from './eval-run-repository';
import { queryScenarios } from './scenario-repository';

/**
 * The evals domain: scenarios (by hand, from a conversation or a run), eval runs played through a door with acting tools
 * recorded by a sandbox and never performed, their expectations and judge, and agents' drafts with their publish.
 */
/** The message of the `evals` queue: one eval run, played by the eval runner (consumer.ts). */
export interface EvalMessage {
  evalRunId: string;
}

type ApiEvalRun = DataOf<'evalsRun'>['eval_run'];

export function toEvalRunResponse(run: StoredEvalRun): ApiEvalRun {
  const finished = run.status === 'completed';
  return {
    eval_run_id: run.evalRunId,
    agent_id: run.agentId,
    draft: run.draft,
    status: run.status,
    scenarios: run.scenarioIds.length,
    passed: run.passed,
    failed: run.failed,
    pass_rate: finished && run.scenarioIds.length > 0 ? run.passed / (run.passed + run.failed || 1) : null,
    error: run.error ?? null,
    created_at: run.createdAt,
    completed_at: run.completedAt ?? null,
  };
}

/**
 * Starts an eval run of the agent's suite (202): stored `queued` with the suite as it is now, then put on the `evals`
 * queue. A retry with the same Idempotency-Key finds the run the first attempt stored and sends its message again
 * (the runner takes a run once at a time, so a second message does no second play).
 */
export async function startEvalRun(deps: Deps, workspaceId: string, body: BodyOf<'evalsRun'>, action: Action): Promise<StoredEvalRun> {
  if (!(await findAgent(deps, workspaceId, body.agent_id)))
    throw new DomainError('AGENT_NOT_FOUND', `No agent ${body.agent_id} in this workspace`, { field: 'agent_id' });
  const scenarios = (await queryScenarios(deps, body.agent_id)).filter((scenario) => scenario.workspaceId === workspaceId);
  if (scenarios.length === 0)
    throw new DomainError('EVAL_SUITE_EMPTY', 'The agent has no scenarios: write one with evals/scenario_create', { field: 'agent_id' });
  const run = await createEvalRunOrFind(deps, {
    evalRunId: `evr_${randomBase62(20, action.seed)}`,
    workspaceId,
    agentId: body.agent_id,
    draft: body.draft,
    status: 'queued',
    pendingStatus: 'queued',
    scenarioIds: scenarios.map((scenario) => scenario.id),
    passed: 0,
    failed: 0,
    attempts: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: action.at.toISOString(),
  });
  if (run.status === 'queued' || run.status === 'running') await deps.queue.send('evals', { evalRunId: run.evalRunId } satisfies EvalMessage);
  return run;
}

async function requireEvalRun(deps: Deps, workspaceId: string, evalRunId: string): Promise<StoredEvalRun> {
  const run = await readEvalRun(deps, evalRunId);
  if (!run || run.workspaceId !== workspaceId) throw new DomainError('NOT_FOUND', `No eval run ${evalRunId} in this workspace`, { field: 'eval_run_id' });
  return run;
}

const toResultResponse = (result: StoredResult): DataOf<'evalsRunStatus'>['results'][number] => ({
  scenario_id: result.scenarioId,
  name: result.name,
  passed: result.passed,
  error: result.error,
  expectations: result.expectations as DataOf<'evalsRunStatus'>['results'][number]['expectations'],
  transcript: result.transcript,
});

/** evals/run_status: the run, each scenario's result (those played so far), and, once completed, the diff. */
export async function evalRunStatus(deps: Deps, workspaceId: string, evalRunId: string): Promise<DataOf<'evalsRunStatus'>> {
  const run = await requireEvalRun(deps, workspaceId, evalRunId);
  const results = await queryResults(deps, evalRunId);
  const diff = run.diff
    ? { previous_eval_run_id: run.diff.previousEvalRunId, fixed: run.diff.fixed, broke: run.diff.broke, still_failing: run.diff.stillFailing }
    : null;
  return { eval_run: toEvalRunResponse(run), results: results.map(toResultResponse), diff };
}

/** The agent's newest eval run (of its draft, or of the live agent), whatever its status. */
export async function latestEvalRun(deps: Deps, agentId: string, which: { draft: boolean }): Promise<StoredEvalRun | undefined> {
  return (await queryEvalRuns(deps, agentId, 20)).find((run) => run.draft === which.draft);
}

/** The previous completed run of the same suite (the agent's, draft or live) that `run` is compared with. */
export async function previousEvalRun(deps: Deps, run: StoredEvalRun): Promise<StoredEvalRun | undefined> {
  return (await queryEvalRuns(deps, run.agentId, 20)).find(
    (other) => other.evalRunId !== run.evalRunId && other.status === 'completed' && other.createdAt <= run.createdAt,
  );
}

/** Which scenarios changed between two runs of a suite: fixed, broke and still failing (scenario ids). */
export async function suiteDiff(deps: Deps, previous: StoredEvalRun | undefined, now: StoredResult[]): Promise<NonNullable<StoredEvalRun['diff']>> {
  if (!previous)
    return { previousEvalRunId: null, fixed: [], broke: [], stillFailing: now.filter((result) => !result.passed).map((result) => result.scenarioId) };
  const before = new Map((await queryResults(deps, previous.evalRunId)).map((result) => [result.scenarioId, result.passed]));
  const diff = { previousEvalRunId: previous.evalRunId, fixed: [] as string[], broke: [] as string[], stillFailing: [] as string[] };
  for (const result of now) {
    const passedBefore = before.get(result.scenarioId);
    if (result.passed && passedBefore === false) diff.fixed.push(result.scenarioId);
    else if (!result.passed && passedBefore === true) diff.broke.push(result.scenarioId);
    else if (!result.passed && passedBefore === false) diff.stillFailing.push(result.scenarioId);
  }
  return diff;
}
