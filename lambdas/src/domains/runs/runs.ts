import { DomainError, newRunId, type RunSource, type schemas } from '@service/shared';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Deps } from '../../infra/deps';
import type { Action } from '../../infra/store/idempotency';
import { toPendingActionResponse, type StoredPendingAction } from './pending-action';
import {
  createRunItemOrFind,
  getRunItem,
  markRunActing,
  PENDING_STATUSES,
  queryPendingRunItems,
  queryRunItemsByAgent,
  renewRunLease,
  requestRunItemStop,
  setRunFields,
  takeRunItem,
  transitionRunItem,
  type RunHold,
} from './repository';

/**
 * The runs domain: a command's run, from `queued` to its end, under a lease its runner renews (runs.ts), its approvals
 * (approvals.ts), cancellation, its steps (steps/) and the runner itself (runtime/).
 */
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
  /** The passages the answer rests on (its knowledge searches' results), stored with the outcome. */
  sources?: RunSource[];
  error?: string;
  usage: { inputTokens: number; outputTokens: number };
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  /** False while usage and webhooks of a finished run are still to be recorded. */
  followUpsDone?: boolean;
  /** Set once the sweeper sent the run's queue message (the API sends its own beside the run's write, unmarked). */
  enqueuedAt?: string;
  /** The hold of the attempt at work (see RUN_LEASE_MS): its id, and when it lapses unless its runner renews it. */
  leaseId?: string;
  leaseUntil?: string;
  /** How many times a runner took the run. */
  attempts?: number;
  /** Set just before the run's first action (a tool that writes or sends): from then on it is never run again from the start. */
  actedAt?: string;
  /**
   * The role the run acts for toward skills (which tools it is offered, the turn token's roles): the role of the
   * member who commanded it with a session (a company-defined role included). Absent for an API key, which acts as
   * the company's automation (`admin`).
   */
  role?: string;
  /** Who started it: absent for the REST API; `mcp` with the connection for the MCP access point (the audit trail). */
  source?: 'mcp';
  connectionId?: string;
  /** Set by agents/command_cancel on a running run: its runner starts no further step and ends it `cancelled`. */
  cancelRequestedAt?: string;
  /** Who cancelled it: `api_key`, `mcp`, or a member's user id. */
  cancelledBy?: string;
  /** How many steps its runner stored (steps/step-log.ts), set with the outcome (and when it parks). */
  stepsCount?: number;
  /** While `requires_action` (autonomy `confirm`), and until its runner resumes: the action waiting for approval (approvals.ts). */
  pendingAction?: StoredPendingAction;
  /** The conversation of a parked run (ModelMessage[] as JSON), which its runner resumes from; parsed only then. */
  conversationJson?: string;
}

/**
 * The stored form: caller JSON (`data`, `schema`) and the model's `output` are kept as JSON text, so any key
 * (`constructor`, `__proto__`) and any depth the API accepted is stored as is, never marshalled as nested maps.
 * `pendingStatus` mirrors `status` while the run is queued, running or waiting for approval (the sweeper's sparse index).
 */
type RunItem = Omit<StoredRun, 'data' | 'schema' | 'output'> & {
  dataJson?: string;
  schemaJson?: string;
  outputJson?: string | null;
  pendingStatus?: RunStatus;
};

function toItem({ data, schema, output, ...run }: StoredRun): RunItem {
  return {
    ...run,
    ...(data ? { dataJson: JSON.stringify(data) } : {}),
    ...(schema ? { schemaJson: JSON.stringify(schema) } : {}),
    ...(output !== undefined ? { outputJson: output === null ? null : JSON.stringify(output) } : {}),
    ...(PENDING_STATUSES.includes(run.status) ? { pendingStatus: run.status } : {}),
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
    sources: run.sources ?? [],
    error: run.error ?? null,
    usage: { input_tokens: run.usage.inputTokens, output_tokens: run.usage.outputTokens },
    created_at: run.createdAt,
    completed_at: run.completedAt ?? null,
    cancel_requested_at: run.cancelRequestedAt ?? null,
    cancelled_by: run.cancelledBy ?? null,
    pending_action: run.status === 'requires_action' && run.pendingAction ? toPendingActionResponse(run.pendingAction) : null,
  };
}

type NewRun = {
  workspaceId: string;
  agentId: string;
  instruction: string;
  autonomy?: Autonomy;
  data?: Record<string, unknown>;
  schema?: Record<string, unknown>;
  /** The commanding member's role (a session); absent: the run acts as an API key, `admin`. */
  role?: string;
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
    ...(input.role ? { role: input.role } : {}),
    ...(input.origin ? { source: input.origin.source, connectionId: input.origin.connectionId } : {}),
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: action.at.toISOString(),
  };
}

/**
 * A run's queue message: its id, and its agent and workspace, which let the runner read the agent and the grants
 * while it takes the run (it still checks them against the run it took).
 */
export const runMessage = (run: Pick<StoredRun, 'runId' | 'agentId' | 'workspaceId'>) => ({
  runId: run.runId,
  agentId: run.agentId,
  workspaceId: run.workspaceId,
});

/**
 * The sweeper's half of "a stored run is always enqueued": sends the message of a queued run that was never marked
 * sent, then marks it. The API sends its message beside the run's write (enqueueNewRun) and marks nothing, so a run
 * still queued a minute later gets a second message here (the runner takes a run once, however often it arrives); a
 * run whose API process died between the two is enqueued here the same way. A failed send fails the run.
 */
export async function ensureEnqueued(deps: Deps, run: StoredRun): Promise<StoredRun> {
  if (run.status !== 'queued' || run.enqueuedAt) return run;
  await deps.queue.send('runs', runMessage(run)).catch((error: unknown) => failUnqueued(deps, run, error));
  const enqueuedAt = deps.now().toISOString();
  await setRunFields(deps, run.runId, { enqueuedAt });
  return { ...run, enqueuedAt };
}

/**
 * Stores the run as `queued` and sends its queue message at the same time: one wait instead of three (write, send,
 * mark). Crash-safe both ways: a message that arrives before its run is read again by the runner for a moment and
 * retried by the queue, and dropped if the run never appears (the write failed, so the caller was told so); a run
 * stored without its message (the process died, or the send failed and the run could not be failed) is enqueued by
 * the sweeper. A failed send fails the run, and the caller gets the error. A resumed action (its earlier attempt
 * died unanswered) first finds what that attempt stored, and sends a message only for a run still queued.
 */
export async function enqueueNewRun(deps: Deps, input: NewRun, action: Action = { at: deps.now() }): Promise<StoredRun> {
  const run = newRun(input, action);
  const store = async () => fromItem(await createRunItemOrFind(deps, toItem(run)));
  if (action.resumed) {
    const found = await store();
    if (found.status === 'queued') await deps.queue.send('runs', runMessage(found)).catch((error: unknown) => failUnqueued(deps, found, error));
    return found;
  }
  const [stored, sent] = await Promise.allSettled([store(), deps.queue.send('runs', runMessage(run))]);
  if (stored.status === 'rejected') throw stored.reason;
  if (sent.status === 'rejected') await failUnqueued(deps, stored.value, sent.reason);
  return stored.value;
}

/** A queued run whose message could not be sent is failed with the reason; the caller gets the send's error. */
async function failUnqueued(deps: Deps, run: StoredRun, error: unknown): Promise<never> {
  if (run.status === 'queued') await failRun(deps, run.runId, 'The run could not be queued');
  throw error;
}

export async function getRun(deps: Deps, workspaceId: string, runId: string): Promise<StoredRun> {
  const run = await findRun(deps, runId);
  if (!run || run.workspaceId !== workspaceId) throw new DomainError('RUN_NOT_FOUND', `No run ${runId} in this workspace`, { field: 'run_id' });
  return run;
}

export async function listRuns(deps: Deps, workspaceId: string, agentId: string, limit: number): Promise<StoredRun[]> {
  return (await queryRunItemsByAgent<RunItem>(deps, agentId, limit)).filter((run) => run.workspaceId === workspaceId).map(fromItem);
}

/** Reads a run by id alone: the queue consumer has no workspace to scope by (the message came from our own queue). */
export async function findRun(deps: Deps, runId: string): Promise<StoredRun | undefined> {
  const item = await getRunItem<RunItem>(deps, runId);
  return item ? fromItem(item) : undefined;
}

/** Runs still `status` (queued, running, or waiting for approval) created before `before`, oldest first: the sweeper's candidates. */
export async function listPendingRuns(deps: Deps, status: 'queued' | 'running' | 'requires_action', before: Date, limit: number): Promise<StoredRun[]> {
  return (await queryPendingRunItems<RunItem>(deps, status, before, limit)).map(fromItem);
}

/** Moves a run to `to` only from one of `from` (and under `hold`); false when it was not in such a state (cancelled, finished, taken over). */
const transition = (deps: Deps, runId: string, from: RunStatus[], to: RunStatus, set: Record<string, unknown> = {}, hold?: RunHold): Promise<boolean> =>
  transitionRunItem(deps, runId, from, to, set, hold);

const heldUnder = (leaseId: string): RunHold => ({ leaseId });

/**
 * How long a runner holds a running run without renewing it: short, so that a run whose runner died is taken up again
 * (or failed) within a minute of the sweep that finds it, yet several heartbeats long, so one slow write loses nothing.
 */
export const RUN_LEASE_MS = 20_000;
/** How often the working runner renews its lease: four renewals fit in one lease. */
export const RUN_HEARTBEAT_MS = 5_000;
/** A run whose runners keep dying (or failing) ends `failed` after this many attempts, before the queue would dead-letter it. */
export const MAX_RUN_ATTEMPTS = 3;

/** The hold of one attempt at a run, renewed by its runner's heartbeat. */
export interface RunLease {
  runId: string;
  id: string;
}

const leaseEnd = (deps: Deps) => new Date(deps.now().getTime() + RUN_LEASE_MS).toISOString();

/**
 * Takes the run for this delivery under a new lease: a queued run, or a running one whose lease lapsed (its runner
 * died) that has not begun acting and has attempts left. Answers the lease and the run as taken (the update returns
 * the item, so the runner needs no read of its own), or undefined when it is missing, finished, cancelled, held by a
 * live runner, or must not be run again (the sweeper fails those with the reason).
 */
export async function takeRun(deps: Deps, runId: string): Promise<{ lease: RunLease; run: StoredRun } | undefined> {
  const now = deps.now().toISOString();
  const lease = { runId, id: randomUUID() };
  const taken = await takeRunItem<RunItem>(deps, runId, { leaseId: lease.id, until: leaseEnd(deps), now, maxAttempts: MAX_RUN_ATTEMPTS });
  return taken && { lease, run: fromItem(taken) };
}

/**
 * The heartbeat: extends the lease, and tells whether a stop was asked for (the renewal reads the run anyway);
 * undefined when it is no longer this runner's (taken over, or the run was failed or cancelled).
 */
export async function renewLease(deps: Deps, lease: RunLease): Promise<{ cancelRequested: boolean } | undefined> {
  const renewed = await renewRunLease<RunItem>(deps, lease.runId, lease.id, leaseEnd(deps));
  return renewed && { cancelRequested: renewed.cancelRequestedAt !== undefined };
}

/**
 * Records, under the lease, that the run is about to perform its first action; false when the lease is lost (the
 * action must then not happen). Once recorded, no runner runs the run from the start again.
 */
export const markActing = (deps: Deps, lease: RunLease) => markRunActing(deps, lease.runId, lease.id, deps.now().toISOString());

/** True when no live runner holds the running run: its lease lapsed, or (taken before leases) it ran past `legacyAfterMs`. */
export function holdLapsed(run: StoredRun, now: Date, legacyAfterMs: number): boolean {
  if (run.leaseUntil) return run.leaseUntil < now.toISOString();
  return !run.startedAt || now.getTime() - Date.parse(run.startedAt) > legacyAfterMs;
}

/** Why a run whose runner died must not be run again (and is failed instead), or undefined when it may be. */
export function noRetakeReason(run: StoredRun): string | undefined {
  if (run.actedAt) return 'The runner stopped after the run had begun acting; it was not run again, so that no action is done twice';
  if (!run.leaseId) return 'The runner stopped before finishing the run';
  if ((run.attempts ?? 0) >= MAX_RUN_ATTEMPTS) return `The runner stopped before finishing the run, ${run.attempts} times`;
  return undefined;
}

/** Fails a running run whose hold lapsed, unless a runner renewed or took it since `run` was read. */
export const failLapsed = (deps: Deps, run: StoredRun, reason: string) =>
  transition(
    deps,
    run.runId,
    ['running'],
    'failed',
    { error: reason, completedAt: deps.now().toISOString(), followUpsDone: false },
    { leaseSeen: run.leaseUntil },
  );

/**
 * A failed attempt gives the run back, so that the queue's next delivery may take it at once; false (nothing changed)
 * when the run has begun acting, since running it again could repeat an action, or was asked to stop.
 */
export const requeueRun = (deps: Deps, lease: RunLease) => transition(deps, lease.runId, ['running'], 'queued', {}, { requeueUnder: lease.id });

/**
 * What a model writes is unbounded; the run item is not (DynamoDB: 400 KB). With the request capped at 100 KB,
 * these bounds keep every finished run writable.
 */
export const RESULT_TEXT_MAX_CHARS = 32_000;
export const OUTPUT_MAX_BYTES = 128 * 1024;

type Outcome = {
  resultText: string;
  output: Record<string, unknown> | null;
  outputError: string | null;
  usage: StoredRun['usage'];
  stepsCount: number;
  sources: RunSource[];
};

function bounded<T extends Pick<Outcome, 'resultText' | 'output' | 'outputError'>>(outcome: T): T {
  const resultText =
    outcome.resultText.length > RESULT_TEXT_MAX_CHARS ? `${outcome.resultText.slice(0, RESULT_TEXT_MAX_CHARS)}… [truncated]` : outcome.resultText;
  const tooLarge = outcome.output !== null && Buffer.byteLength(JSON.stringify(outcome.output)) > OUTPUT_MAX_BYTES;
  return tooLarge
    ? { ...outcome, resultText, output: null, outputError: `The output was larger than ${OUTPUT_MAX_BYTES / 1024} KB` }
    : { ...outcome, resultText };
}

/** Stores the outcome (bounded) and returns what was stored, or undefined when the run was no longer running under `lease`. */
export async function completeRun(deps: Deps, lease: RunLease, outcome: Outcome): Promise<Outcome | undefined> {
  const stored = bounded(outcome);
  const { resultText, output, outputError, usage, stepsCount, sources } = stored;
  const done = await transition(
    deps,
    lease.runId,
    ['running'],
    'completed',
    {
      resultText,
      outputJson: output === null ? null : JSON.stringify(output),
      outputError,
      sources,
      usage,
      stepsCount,
      completedAt: deps.now().toISOString(),
      followUpsDone: false,
    },
    heldUnder(lease.id),
  );
  return done ? stored : undefined;
}

/** Fails a queued or running run (only under `lease` when given: the runner's own verdict). */
export const failRun = (deps: Deps, runId: string, reason: string, lease?: RunLease) =>
  transition(
    deps,
    runId,
    ['queued', 'running'],
    'failed',
    { error: reason, completedAt: deps.now().toISOString(), followUpsDone: false },
    lease && heldUnder(lease.id),
  );

/** A run still waiting in the queue is cancelled at once: no runner takes it any more. */
export const cancelQueuedRun = (deps: Deps, runId: string, by: string) => {
  const now = deps.now().toISOString();
  return transition(deps, runId, ['queued'], 'cancelled', { cancelRequestedAt: now, cancelledBy: by, completedAt: now, followUpsDone: true });
};

/** Asks a running run to stop (its runner sees it before its next step, or at its next heartbeat); false unless it is running. */
export const requestRunStop = (deps: Deps, runId: string, by: string) => requestRunItemStop(deps, runId, by, deps.now().toISOString());

/** The runner's acknowledgement of a stop: the run ends `cancelled` with what it produced so far, under its lease. */
export function endCancelledRun(deps: Deps, lease: RunLease, progress: Pick<Outcome, 'resultText' | 'usage'>): Promise<boolean> {
  const { resultText } = bounded({ resultText: progress.resultText, output: null, outputError: null });
  return transition(
    deps,
    lease.runId,
    ['running'],
    'cancelled',
    { resultText, usage: progress.usage, completedAt: deps.now().toISOString(), followUpsDone: false },
    heldUnder(lease.id),
  );
}

/** Ends a running run whose stop was asked for but whose runner did not acknowledge it (it died, or is stuck in a step). */
export const endUnacknowledgedStop = (deps: Deps, runId: string) =>
  transition(deps, runId, ['running'], 'cancelled', { completedAt: deps.now().toISOString(), followUpsDone: true }, { stopRequested: true });

/** Usage and webhooks of a finished run were handled; a redelivered message need not repeat them. */
export async function markFollowUpsDone(deps: Deps, runId: string): Promise<void> {
  await setRunFields(deps, runId, { followUpsDone: true });
}
