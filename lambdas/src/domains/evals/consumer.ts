import type { SQSRecord } from 'aws-lambda';
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { LanguageModel } from 'ai';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { eachRecordAtOnce, type QueueConsumer } from '../../infra/queue/queue';
import { findAgent } from '../agents/agents';
import { recordUsage } from '../usage/usage';
import { emitEvent } from '../webhooks/emit';
import { EVAL_QUIET_MS, MAX_EVAL_ATTEMPTS } from './attempts';
import type { ScenarioDoors } from './doors';
import { agentAsDrafted } from './drafts';
import { endEvalRunItem, putResultOnce, queryResults, readEvalRun, takeEvalRunItem, touchEvalRun, type StoredEvalRun } from './eval-run-repository';
import { previousEvalRun, suiteDiff, toEvalRunResponse } from './eval-runs';
import { playScenario } from './player';
import { readScenario } from './scenario-repository';

const EvalMessage = z.object({ evalRunId: z.string().regex(/^evr_/) });

export interface EvalConsumerOptions {
  doors: ScenarioDoors;
  /** Grades `judge` expectations; undefined when the configured model cannot (the offline model). */
  grader: LanguageModel | undefined;
}

/** The same event id on every emit of a run's outcome: an emit repeated after a crash delivers nothing twice. */
const eventIdOf = (evalRunId: string) => `evt_${createHash('sha256').update(`${evalRunId}:completed`).digest('base64url').replace(/[-_]/g, '').slice(0, 24)}`;

async function announce(deps: Deps, run: StoredEvalRun): Promise<void> {
  if (run.status !== 'completed' && run.status !== 'failed') return;
  const response = toEvalRunResponse(run);
  await emitEvent(
    deps,
    run.workspaceId,
    'eval.run.completed',
    {
      eval_run_id: run.evalRunId,
      agent_id: run.agentId,
      draft: run.draft,
      status: run.status,
      scenarios: response.scenarios,
      passed: run.passed,
      failed: run.failed,
      pass_rate: response.pass_rate,
      fixed: run.diff?.fixed ?? [],
      broke: run.diff?.broke ?? [],
      error: run.error ?? null,
      completed_at: run.completedAt ?? deps.now().toISOString(),
    },
    { eventId: eventIdOf(run.evalRunId) },
  );
}

async function fail(deps: Deps, run: StoredEvalRun, error: string): Promise<void> {
  const ended = await endEvalRunItem(deps, run.evalRunId, {
    status: 'failed',
    error,
    passed: 0,
    failed: 0,
    usage: run.usage,
    completedAt: deps.now().toISOString(),
  });
  if (ended) await announce(deps, ended);
}

/** Plays every scenario of the run not played yet (a retry goes on where a crashed attempt stopped), then ends it. */
async function play(deps: Deps, run: StoredEvalRun, options: EvalConsumerOptions): Promise<void> {
  const live = await findAgent(deps, run.workspaceId, run.agentId);
  if (!live) return fail(deps, run, 'the agent no longer exists');
  const playedAgent = run.draft ? await agentAsDrafted(deps, live) : { agent: live };
  const played = new Set((await queryResults(deps, run.evalRunId)).map((result) => result.scenarioId));
  for (const scenarioId of run.scenarioIds) {
    if (played.has(scenarioId)) continue;
    const scenario = await readScenario(deps, scenarioId);
    // A scenario deleted since the run was asked for is left out.
    if (!scenario || scenario.workspaceId !== run.workspaceId || scenario.agentId !== run.agentId) continue;
    const result = await playScenario(deps, playedAgent, scenario, run.evalRunId, options);
    if (await putResultOnce(deps, result)) await recordUsage(deps, run.workspaceId, run.agentId, result.usage);
    await touchEvalRun(deps, run.evalRunId, deps.now().toISOString());
  }
  const results = await queryResults(deps, run.evalRunId);
  const passed = results.filter((result) => result.passed).length;
  const usage = results.reduce(
    (sum, result) => ({ inputTokens: sum.inputTokens + result.usage.inputTokens, outputTokens: sum.outputTokens + result.usage.outputTokens }),
    { inputTokens: 0, outputTokens: 0 },
  );
  const diff = await suiteDiff(deps, await previousEvalRun(deps, run), results);
  const ended = await endEvalRunItem(deps, run.evalRunId, {
    status: 'completed',
    passed,
    failed: results.length - passed,
    usage,
    diff,
    completedAt: deps.now().toISOString(),
  });
  if (ended) await announce(deps, ended);
}

/**
 * The `evals` queue's consumer (the EvalRunner function; locally the same handler): takes the eval run for one more
 * attempt and plays it. A message for a run it cannot take is for a finished run (its webhook is sent again, the same
 * event id, in case the attempt that ended it died first), for one out of attempts, which it fails, or for one another
 * attempt is playing, which it leaves to that attempt.
 */
export function createEvalConsumer(deps: Deps, options: EvalConsumerOptions): QueueConsumer {
  return eachRecordAtOnce(
    async (record: SQSRecord) => {
      const { evalRunId } = EvalMessage.parse(JSON.parse(record.body));
      const now = deps.now();
      const run = await takeEvalRunItem(deps, evalRunId, now.toISOString(), new Date(now.getTime() - EVAL_QUIET_MS).toISOString(), MAX_EVAL_ATTEMPTS);
      if (run) return play(deps, run, options);
      const seen = await readEvalRun(deps, evalRunId);
      if (!seen) return;
      if (seen.status === 'completed' || seen.status === 'failed') return announce(deps, seen);
      if (seen.attempts >= MAX_EVAL_ATTEMPTS) return fail(deps, seen, `the eval run could not finish in ${MAX_EVAL_ATTEMPTS} attempts`);
      // Otherwise an attempt is at work on it; should it die, the sweeper sends the message again (eval-sweeper.ts).
    },
    (record, error) => logger.error('eval run failed; the queue retries it', { messageId: record.messageId, error }),
  );
}
