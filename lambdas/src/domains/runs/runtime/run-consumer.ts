import type { LanguageModel } from 'ai';
import type { SQSRecord } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import type { Deps } from '../../../infra/deps';
import { findAgent, type StoredAgent } from '../../agents/agents';
import { completeRun, endCancelledRun, failRun, findRun, markFollowUpsDone, MAX_RUN_ATTEMPTS, requeueRun, takeRun, type StoredRun } from '../runs';
import { afterAnswer } from './after-answer';
import { noteRunEnded } from '../../insights/record';
import type { RunFacts } from '../../insights/record';
import { eachRecordAtOnce, type QueueConsumer } from '../../../infra/queue/queue';
import { emitEvent } from '../../webhooks/emit';
import { toolsOfAgent } from './agent-tools';
import { runLanguage } from './run-language';
import { listGrants } from '../../skills/grants';
import { executeRun, RunCannotGoOn } from './execute-run';
import { timelineLength, toolCallTally } from '../steps/timeline';
import { holdRun } from './run-lease';
import { watchForStop } from './run-cancellation';
import { logger } from '../../../infra/logger';
import { parkRun } from '../approvals';
import { toPendingActionResponse } from '../pending-action';

/** See `runMessage`; a message without the agent and workspace (an approval's, a cancel's) has them read after the take. */
const RunMessage = z.object({ runId: z.string(), agentId: z.string().optional(), workspaceId: z.string().optional() });

class HeldElsewhere extends Error {}

/** The same event id on every emit of a run's outcome, so an emit repeated after a crash delivers nothing twice. */
const eventIdFor = (runId: string, event: string) =>
  `evt_${createHash('sha256').update(`${runId}:${event}`).digest('base64url').replace(/[-_]/g, '').slice(0, 24)}`;

export interface RunConsumerOptions {
  model: LanguageModel;
}

/** Usage and the webhook of a finished run (a cancelled one: its usage so far); safe to repeat (stable event id). */
async function followUps(deps: Deps, run: StoredRun, agentName: string): Promise<void> {
  const common = {
    run_id: run.runId,
    agent_id: run.agentId,
    agent_name: agentName,
    status: run.status,
    instruction: run.instruction,
    steps_count: await timelineLength(deps, run),
  };
  await noteRunEnded(deps, run, {
    status: run.status as RunFacts['status'],
    endedAt: run.completedAt ?? deps.now().toISOString(),
    inputTokens: run.usage.inputTokens,
    outputTokens: run.usage.outputTokens,
    ...(await toolCallTally(deps, run.runId)),
  });
  if (run.status === 'cancelled') await afterAnswer(deps, { workspaceId: run.workspaceId, agentId: run.agentId, usage: run.usage });
  if (run.status === 'completed') {
    await Promise.all([
      afterAnswer(deps, { workspaceId: run.workspaceId, agentId: run.agentId, usage: run.usage }),
      emitEvent(
        deps,
        run.workspaceId,
        'agent.command.completed',
        { ...common, result_text: run.resultText ?? '' },
        { eventId: eventIdFor(run.runId, 'completed') },
      ),
    ]);
  } else if (run.status === 'failed') {
    await emitEvent(
      deps,
      run.workspaceId,
      'agent.command.failed',
      { ...common, error: run.error ?? 'unknown error' },
      { eventId: eventIdFor(run.runId, 'failed') },
    );
  }
  await markFollowUpsDone(deps, run.runId);
}

/**
 * The webhook of a run that waits for a person (stable event id per approval); repeated on the redelivered message of
 * a runner that died between parking the run and sending it.
 */
async function waitingFollowUps(deps: Deps, run: StoredRun, agentName: string): Promise<void> {
  const action = run.pendingAction!;
  await emitEvent(
    deps,
    run.workspaceId,
    'agent.command.action_required',
    {
      run_id: run.runId,
      agent_id: run.agentId,
      agent_name: agentName,
      status: 'requires_action',
      instruction: run.instruction,
      action: toPendingActionResponse(action),
      steps_count: (run.stepsCount ?? 0) + 1,
    },
    { eventId: eventIdFor(run.runId, `action_required:${action.approvalId}`) },
  );
  await markFollowUpsDone(deps, run.runId);
}

/** The run is written before its message; a short wait still covers a store that is slow to show it. */
async function findRunSoon(deps: Deps, runId: string): Promise<StoredRun | undefined> {
  for (let wait = 0; wait < 5; wait += 1) {
    const run = await findRun(deps, runId);
    if (run) return run;
    await sleep(20 * (wait + 1));
  }
  return undefined;
}

/**
 * A run this delivery could not take, as read after the attempt: the follow-ups a runner that died left undone, another
 * runner's run (the message comes back later), or nothing to do. A run not readable yet comes back too, and is
 * dropped after the last attempt (it was never stored).
 */
async function settleUntaken(deps: Deps, runId: string, run: StoredRun | undefined, received: number): Promise<void> {
  if (!run) {
    if (received < MAX_RUN_ATTEMPTS) throw new Error(`run ${runId} is not readable yet`);
    return;
  }
  // A second delivery of a run another runner holds comes back later instead of vanishing (its owner may give it back).
  if (run.status === 'running' || run.status === 'queued') throw new HeldElsewhere(`run ${runId} is held by another runner`);
  if (run.followUpsDone) return;
  const agentName = (await findAgent(deps, run.workspaceId, run.agentId))?.name ?? '';
  if (run.status === 'requires_action') return waitingFollowUps(deps, run, agentName);
  return followUps(deps, run, agentName);
}

/**
 * A read started before the run was taken, used only when the run turns out to be the one it was started for. The
 * reads may go unused (the run failed first), so none leaves an unhandled rejection; whoever awaits one sees its error.
 */
function earlyRead<Key extends string[], T>(expected: Key | undefined, read: (...key: Key) => Promise<T>): (...actual: Key) => Promise<T> {
  const quietly = (key: Key) => {
    const reading = read(...key);
    reading.catch(() => undefined);
    return reading;
  };
  const started = expected === undefined ? undefined : quietly(expected);
  return (...actual) => (started && actual.every((part, index) => part === expected![index]) ? started : quietly(actual));
}

/**
 * One delivery of a run's message. The store calls of a run that completes with one tool call (bench/runner.ts counts
 * them), and why each is needed:
 * - the API's PutItem of the run (runs.ts), the record its 202 answer stands for;
 * - takeRun, a conditional UpdateItem: the lease, the one guard against two runners working the run, and the run's
 *   only read (it answers the item, with no stop asked for);
 * - the agent (a GetItem: its current instructions, skills and language) and the workspace's grants
 *   (a Query, never cached: a grant revoked a moment ago keeps its tool from the next run), both read during the take;
 * - markActing, a conditional UpdateItem before the first action: once recorded under the lease, a runner that died
 *   is never run again from the start, so no action happens twice;
 * - the turn (a PutItem when its token is minted, a GetItem when the skill calls back): a turn token acts only if a
 *   run was given it; then the action itself (here a record's PutItem, and its `contact.created` emit, whose reads of
 *   who hears of it go beside the write);
 * - the steps, a BatchWriteItem for what accumulated each WRITE_DELAY_MS (steps/step-log.ts), for those who watch;
 * - completeRun, a conditional UpdateItem under the lease: the outcome;
 * - the follow-ups: the usage's UpdateItem and the `agent.command.completed` emit (webhooks/emit.ts), at once, then
 *   markFollowUpsDone, an UpdateItem, so that a redelivered message repeats neither.
 * The stop checks read nothing more while a look at the run is recent (run-cancellation.ts).
 */
async function processRecord(deps: Deps, options: RunConsumerOptions, record: SQSRecord): Promise<void> {
  const { runId, workspaceId, agentId } = RunMessage.parse(JSON.parse(record.body));
  const received = Number(record.attributes.ApproximateReceiveCount || '1');
  // The agent and the workspace's grants (the tools the run is offered depend on both) are read while the run is taken.
  const agentOf = earlyRead(workspaceId && agentId ? [workspaceId, agentId] : undefined, (inWorkspace: string, id: string) => findAgent(deps, inWorkspace, id));
  const grantsOf = earlyRead(workspaceId ? [workspaceId] : undefined, (of: string) => listGrants(deps, of));
  // Taking the run comes first: in the common case it is the only look at the run, and it shows no stop asked for.
  const takenAt = performance.now();
  let taken = await takeRun(deps, runId);
  let untaken: StoredRun | undefined;
  if (!taken) {
    untaken = await findRunSoon(deps, runId);
    // A message may arrive a moment before the API's write of its run is readable: take it once it is.
    if (untaken?.status === 'queued') taken = await takeRun(deps, runId);
  }
  if (!taken) return settleUntaken(deps, runId, untaken, received);
  const { lease, run } = taken;

  // Counted on the run too: the sweeper's fresh message for a run whose runner died starts its receive count anew.
  const attempt = Math.max(received, run.attempts ?? 1);
  const stopping = watchForStop(deps, runId, takenAt);
  const held = holdRun(deps, lease, stopping.looked);
  let agent: StoredAgent | undefined;
  try {
    const grants = grantsOf(run.workspaceId);
    agent = await agentOf(run.workspaceId, run.agentId);
    if (!agent) throw new Error(`The agent ${run.agentId} no longer exists`);
    const language = await runLanguage(agent, run);
    const toolbox = await toolsOfAgent(deps, agent, { runId, language, role: run.role }, grants);
    const outcome = await executeRun({ deps, run, agent, language, model: options.model, tools: toolbox.tools, held, stopping }).finally(() => toolbox.close());
    if (outcome.kind === 'parks') {
      // Refused when the run was asked to stop meanwhile (or is no longer this runner's): the stop is handled below.
      if (!(await parkRun(deps, lease, outcome.parking))) {
        await stopping.checkpoint();
        throw new Error(`run ${runId} could not wait for approval: it is no longer this runner's`);
      }
      // A runner that dies here leaves those two steps unstored: the timeline shows them from the run item (timeline.ts).
      await outcome.announce();
      return await waitingFollowUps(deps, { ...run, status: 'requires_action', ...outcome.parking }, agent.name);
    }
    const stored = await completeRun(deps, lease, outcome);
    if (stored) await followUps(deps, { ...run, status: 'completed', ...stored, output: stored.output ?? undefined }, agent.name);
  } catch (error) {
    // The run is another runner's now, or the sweeper failed it: nothing of it is this attempt's to settle.
    if (held.lost) return;
    if (stopping.requested && (await endCancelledRun(deps, lease, stopping.progress)))
      return followUps(deps, { ...run, status: 'cancelled', ...stopping.progress }, agent?.name ?? '');
    const reason = error instanceof Error ? error.message : String(error);
    // A run that has begun acting is not given back: running it again could repeat an action.
    if (attempt < MAX_RUN_ATTEMPTS && !(error instanceof RunCannotGoOn) && (await requeueRun(deps, lease))) throw error;
    logger.error('run failed', { runId, workspaceId: run.workspaceId, attempt, acted: held.acted, reason });
    const verdict = held.acted && attempt < MAX_RUN_ATTEMPTS ? `${reason} (not retried: the run had begun acting, and no action is done twice)` : reason;
    if (await failRun(deps, runId, verdict, lease)) await followUps(deps, { ...run, status: 'failed', error: verdict }, agent?.name ?? '');
  } finally {
    held.release();
  }
}

/**
 * The `runs` queue consumer (SQS event source mapping with ReportBatchItemFailures; the local queue calls it the same
 * way). The runs of a batch are worked at the same time: each waits on its model and its tools, not on the others.
 */
export function createRunConsumer(deps: Deps, options: RunConsumerOptions): QueueConsumer {
  return eachRecordAtOnce(
    (record) => processRecord(deps, options, record),
    (record, error) => logger.error('run attempt failed; the queue will retry it', { messageId: record.messageId, error }),
  );
}
