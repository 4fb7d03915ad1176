import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { answerRunItemApproval, endWaitingRunItem, parkRunItem } from './repository';
import type { StoredPendingAction } from './pending-action';
import { getRun, listPendingRuns, type RunLease, type StoredRun } from './runs';

/**
 * A `confirm` run that wants to act waits for a person: the run item itself is the one approval record, so every door
 * (REST, the dashboard, MCP) answers the same record with one conditional write, and the first answer wins.
 * - The runner parks the run (`requires_action`) with the pending action and the conversation so far, under its lease.
 * - An answer records the decision and puts the run back in the queue in the same write; a crash before the queue
 *   message is repaired by the sweeper (a queued run not marked sent), so no answer is lost.
 * - The runner resumes from the stored conversation: the AI SDK runs an approved tool call (once: the run's first
 *   action is recorded under the lease, and a runner that died after it is never run again) or tells the model it was
 *   rejected. Parking clears that record, so each approved action is guarded on its own.
 * - Unanswered by `expiresAt`, the sweeper ends the run `cancelled` with the reason.
 */
/** What a runner stores when its run stops to wait for a person. */
export interface Parking {
  pendingAction: StoredPendingAction;
  /** The conversation so far (ModelMessage[] as JSON), ending with the assistant's approval request. */
  conversationJson: string;
  usage: StoredRun['usage'];
  stepsCount: number;
}

/**
 * Parks a running run under `lease`: `requires_action` with its pending action and conversation. Its attempts and its
 * acting mark start afresh, since a resumed run goes on from the stored conversation, never from the start. False when
 * the run is no longer this runner's, or was asked to stop.
 */
export const parkRun = (deps: Deps, lease: RunLease, parking: Parking) => parkRunItem(deps, lease.runId, lease.id, parking);

const notPending = (run: StoredRun) => {
  const answered = run.pendingAction?.decision;
  const why = answered ? `its action was already ${answered}` : `it is ${run.status}`;
  return new DomainError('APPROVAL_NOT_PENDING', `The run ${run.runId} waits for no approval: ${why}`, { field: 'run_id' });
};

/**
 * Answers the approval a run waits for, from any door; the first answer wins. The decision and the run's return to
 * the queue are one write; the queue message follows (the sweeper sends it if this process dies first).
 * `by`: `api_key`, `mcp`, or the member's user id.
 */
export async function answerApproval(
  deps: Deps,
  workspaceId: string,
  runId: string,
  answer: { decision: 'approved' | 'rejected'; by: string; note?: string },
): Promise<StoredRun> {
  const run = await getRun(deps, workspaceId, runId);
  const action = run.pendingAction;
  if (run.status !== 'requires_action' || !action || action.decision) throw notPending(run);
  const now = deps.now().toISOString();
  if (action.expiresAt <= now) throw new DomainError('APPROVAL_EXPIRED', `The approval of run ${runId} expired at ${action.expiresAt}`, { field: 'run_id' });
  const answered = await answerRunItemApproval(deps, runId, action.approvalId, { ...answer, at: now });
  if (!answered) throw notPending(await getRun(deps, workspaceId, runId));
  await deps.queue.send('runs', { runId });
  return getRun(deps, workspaceId, runId);
}

/**
 * Ends a waiting run `cancelled` (asked to stop, or its approval expired); false when it no longer waits (answered
 * first). Its usage so far and the webhook are the runner's follow-ups: the caller sends the run's message.
 */
export const endWaitingRun = (deps: Deps, runId: string, by: string, reason?: string) =>
  endWaitingRunItem(deps, runId, { by, at: deps.now().toISOString(), ...(reason ? { reason } : {}) });

/** Runs waiting for a person, oldest first: the sweeper's candidates, and (by workspace) "Waiting for you". */
export async function listWaitingRuns(deps: Deps, filter: { workspaceId?: string; agentId?: string }, limit: number): Promise<StoredRun[]> {
  // The sparse `pending` index holds only the runs not yet finished; the waiting ones are few, and a page of them
  // read oldest first is filtered by workspace here.
  const runs = await listPendingRuns(deps, 'requires_action', deps.now(), filter.workspaceId ? 1_000 : limit);
  return runs
    .filter((run) => (!filter.workspaceId || run.workspaceId === filter.workspaceId) && (!filter.agentId || run.agentId === filter.agentId))
    .slice(0, limit);
}
