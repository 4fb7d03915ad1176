import { DomainError } from '@service/shared';
import { ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { noteCall } from '../../domains/connections/connections';
import { answerApproval } from '../../domains/runs/approvals';
import { cancelRun } from '../../domains/runs/cancel-run';
import { getRun, type StoredRun } from '../../domains/runs/runs';
import { hasScope, reachesAgent, roleAllows, type McpAccess } from './access';

/**
 * MCP tasks over our runs, for a stateless server: the task id is the run id, and the run (in the store) is the
 * task's durable state, so any instance answers any task request by reading the run.
 * - 2026-07-28: the `io.modelcontextprotocol/tasks` extension (SEP-2663). A client declaring the extension in its
 *   request's client capabilities gets `ask_agent` answered with a task (`resultType: task`); `tasks/get` answers the
 *   detailed task (the final tool result inline once completed; while the run waits for approval, an
 *   `input_required` task with a form elicitation), `tasks/update` answers that elicitation (approve or reject:
 *   agents:act), `tasks/cancel` stops the run.
 * - 2025-11-25 (experimental tasks): a `tools/call` of ask_agent carrying `params.task` gets `{ task }`; `tasks/get`,
 *   `tasks/result` (waits up to a minute for the run, then refuses) and `tasks/cancel`.
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const RELATED_TASK_KEY = 'io.modelcontextprotocol/related-task';
/** How often a client should poll tasks/get (a hint). */
const POLL_INTERVAL_MS = 2000;
/** The elicitation key of a run's approval in an input_required task (one approval at a time). */
export const APPROVAL_INPUT_KEY = 'approval';

export type TaskGeneration = 'v1' | 'v2';

/** The task a 2025-11-25 `tools/call` asked for (`params.task`), read from the request body before the SDK sees it. */
export function legacyTaskParam(body: string): { ttl?: number } | undefined {
  if (!body.includes('"task"')) return undefined;
  try {
    const message = JSON.parse(body) as { method?: unknown; params?: { task?: unknown } };
    const task = message.method === 'tools/call' ? message.params?.task : undefined;
    return task !== null && typeof task === 'object' && !Array.isArray(task) ? (task as { ttl?: number }) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether this tools/call should be answered with a task, and in which generation's shape. */
export function taskGeneration(access: McpAccess, ctx: ServerContext): TaskGeneration | undefined {
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_KEY] as
    { extensions?: Record<string, unknown> } | undefined;
  if (capabilities?.extensions?.[TASKS_EXTENSION] !== undefined) return 'v2';
  return access.legacyTask ? 'v1' : undefined;
}

type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TASK_STATUS: Record<StoredRun['status'], TaskStatus> = {
  queued: 'working',
  running: 'working',
  requires_action: 'input_required',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

export const taskStatus = (run: StoredRun): TaskStatus => TASK_STATUS[run.status];

const lastUpdated = (run: StoredRun): string =>
  run.completedAt ?? run.pendingAction?.answeredAt ?? run.pendingAction?.requestedAt ?? run.startedAt ?? run.createdAt;

/** What a run's tool result and status text are made of (tools.ts owns them). */
export interface RunRendering {
  text: (run: StoredRun) => string;
  result: (run: StoredRun) => Promise<Record<string, unknown>>;
}

/** The 2025-11-25 Task. */
function taskV1(run: StoredRun, rendering: RunRendering) {
  return {
    taskId: run.runId,
    status: taskStatus(run),
    statusMessage: rendering.text(run),
    createdAt: run.createdAt,
    lastUpdatedAt: lastUpdated(run),
    ttl: null,
    pollInterval: POLL_INTERVAL_MS,
  };
}

/** The 2026-07-28 task, without its status-specific fields. */
function taskV2(run: StoredRun, rendering: RunRendering) {
  return {
    taskId: run.runId,
    status: taskStatus(run),
    statusMessage: rendering.text(run),
    createdAt: run.createdAt,
    lastUpdatedAt: lastUpdated(run),
    ttlMs: null,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
}

/** ask_agent's answer for a client that takes tasks: the run as the task, at once. */
export function createTaskResult(generation: TaskGeneration, run: StoredRun, rendering: RunRendering): Record<string, unknown> {
  // 2025-11-25: the SDK (2.4) checks a tools/call answer as a CallToolResult on that era and refuses one without
  // content, so the CreateTaskResult carries a text too (an extra field its loose result shape allows).
  return generation === 'v1'
    ? { task: taskV1(run, rendering), content: [{ type: 'text', text: `Run ${run.runId} started as task ${run.runId}: poll tasks/get` }] }
    : { resultType: 'task', ...taskV2(run, rendering) };
}

/** The approval a waiting run asks its person for, as a form elicitation (2026-07-28 input request). */
function approvalRequest(run: StoredRun) {
  const action = run.pendingAction!;
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: `The agent wants to ${action.capability}: ${action.reason}. Arguments: ${action.argumentsJson}. Approve or reject (it expires at ${action.expiresAt}).`,
      requestedSchema: {
        type: 'object',
        properties: {
          decision: { type: 'string', title: 'Decision', enum: ['approve', 'reject'] },
          note: { type: 'string', title: 'Note', maxLength: 500 },
        },
        required: ['decision'],
      },
    },
  };
}

/** The 2026-07-28 detailed task (tasks/get). */
async function detailedTaskV2(run: StoredRun, rendering: RunRendering): Promise<Record<string, unknown>> {
  const task = taskV2(run, rendering);
  switch (task.status) {
    case 'completed':
      return { ...task, result: await rendering.result(run) };
    case 'failed':
      return { ...task, error: { code: ProtocolErrorCode.InternalError, message: run.error ?? 'The run failed' } };
    case 'input_required':
      return run.pendingAction && !run.pendingAction.decision
        ? { ...task, inputRequests: { [APPROVAL_INPUT_KEY]: approvalRequest(run) } }
        : { ...task, status: 'working' };
    default:
      return task;
  }
}

const TaskIdParams = z.looseObject({ taskId: z.string() });
const UpdateParams = z.looseObject({ taskId: z.string(), inputResponses: z.record(z.string(), z.unknown()).optional() });
const ApprovalResponse = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.looseObject({ decision: z.enum(['approve', 'reject']).optional(), note: z.string().max(500).optional() }).optional(),
});

/** A refusal of a task request, as the JSON-RPC error the client reads. */
const refused = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/**
 * The run behind a task, if this caller may see it: another workspace's run, or one of an agent the grant does not
 * reach, is not found; without agents:read a caller sees only the runs it started.
 */
async function taskRun(access: McpAccess, taskId: string): Promise<StoredRun> {
  if (!hasScope(access, 'agents:ask') && !hasScope(access, 'agents:read')) throw refused('Tasks need the permission agents:ask');
  const denied = roleAllows(access, 'read');
  if (denied) throw refused(denied);
  let run: StoredRun;
  try {
    run = await getRun(access.deps, access.grant.workspaceId, taskId);
  } catch (error) {
    if (error instanceof DomainError) throw refused(`No task ${taskId}`);
    throw error;
  }
  if (!reachesAgent(access, run.agentId)) throw refused(`No task ${taskId}`);
  if (!hasScope(access, 'agents:read') && run.connectionId !== access.grant.id) throw refused(`No task ${taskId}`);
  return run;
}

/** Records a task request beside the tool calls (connections/calls). */
function note(access: McpAccess, tool: string, run: StoredRun | undefined, outcome: string): void {
  access.afterAnswer.push(() => noteCall(access.deps, access.grant.id, { tool, agentId: run?.agentId ?? null, runId: run?.runId ?? null, outcome }));
}

/** Runs a task method's body, records it, and turns domain refusals into JSON-RPC errors. */
async function recorded<T>(access: McpAccess, tool: string, body: () => Promise<{ run: StoredRun; answer: T }>): Promise<T> {
  try {
    const { run, answer } = await body();
    note(access, tool, run, 'ok');
    return answer;
  } catch (error) {
    const outcome = error instanceof DomainError ? error.code : error instanceof ProtocolError ? 'refused' : 'failed';
    note(access, tool, undefined, outcome);
    if (error instanceof DomainError) throw refused(error.message);
    throw error;
  }
}

/** Who stops or answers a run over MCP (as REST records `api_key` or the member). */
const MCP_ACTOR = 'mcp';

/** Stops the run behind a task: agents:ask, a role that may command, and the run's agent reached. */
export async function cancelTaskRun(access: McpAccess, runId: string): Promise<StoredRun> {
  if (!hasScope(access, 'agents:ask')) throw new DomainError('FORBIDDEN', 'Stopping a run needs the permission agents:ask');
  const denied = roleAllows(access, 'command');
  if (denied) throw new DomainError('FORBIDDEN', denied);
  const run = await getRun(access.deps, access.grant.workspaceId, runId);
  if (!reachesAgent(access, run.agentId)) throw new DomainError('RUN_NOT_FOUND', `No run ${runId} in this workspace`, { field: 'run_id' });
  return cancelRun(access.deps, access.grant.workspaceId, runId, MCP_ACTOR);
}

/** Answers the approval a run waits for: agents:act, a role that may command, and the run's agent reached. */
export async function answerRunApproval(access: McpAccess, runId: string, decision: 'approved' | 'rejected', note?: string): Promise<StoredRun> {
  if (!hasScope(access, 'agents:act')) throw new DomainError('FORBIDDEN', 'Answering an approval needs the permission agents:act');
  const denied = roleAllows(access, 'command');
  if (denied) throw new DomainError('FORBIDDEN', denied);
  const run = await getRun(access.deps, access.grant.workspaceId, runId);
  if (!reachesAgent(access, run.agentId)) throw new DomainError('RUN_NOT_FOUND', `No run ${runId} in this workspace`, { field: 'run_id' });
  return answerApproval(access.deps, access.grant.workspaceId, runId, { decision, by: MCP_ACTOR, ...(note ? { note } : {}) });
}

/** The longest tasks/result (2025-11-25) waits for the run before it refuses (poll tasks/get instead). */
const RESULT_WAIT_MS = 60_000;

/** Whether a tool's answer is a task (2025-11-25 `{ task }`, 2026-07-28 `resultType: task`). */
const isTaskAnswer = (result: unknown): boolean =>
  typeof result === 'object' && result !== null && ('task' in result || (result as { resultType?: unknown }).resultType === 'task');

/**
 * Registers the task methods of the era this per-request server serves. The SDK checks every answer of a tool with
 * an output schema for structured content, a task answer included (it has no task runtime): a task answer skips that
 * check, and goes out as the task alone.
 */
export function registerTaskMethods(server: McpServer, access: McpAccess, era: 'legacy' | 'modern', rendering: RunRendering): void {
  const sdk = server as unknown as { validateToolOutput: (tool: unknown, result: unknown, name: string) => Promise<void> };
  const validateToolOutput = sdk.validateToolOutput.bind(server);
  sdk.validateToolOutput = async (tool, result, name) => (isTaskAnswer(result) ? undefined : validateToolOutput(tool, result, name));
  const low = server.server;
  if (era === 'modern') {
    low.setRequestHandler('tasks/get', { params: TaskIdParams }, async ({ taskId }) => {
      const run = await taskRun(access, taskId);
      return (await detailedTaskV2(run, rendering)) as never;
    });
    low.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async ({ taskId }) =>
      recorded(access, 'tasks/cancel', async () => {
        await taskRun(access, taskId);
        const run = await cancelTaskRun(access, taskId);
        return { run, answer: {} as never };
      }),
    );
    low.setRequestHandler('tasks/update', { params: UpdateParams }, async ({ taskId, inputResponses }, ctx) =>
      recorded(access, 'tasks/update', async () => {
        const run = await taskRun(access, taskId);
        // The SDK lifts a request's inputResponses out of its params (the multi round-trip seam).
        const raw = (inputResponses ?? ctx.mcpReq.inputResponses ?? {})[APPROVAL_INPUT_KEY];
        if (raw === undefined) return { run, answer: {} as never };
        const response = ApprovalResponse.safeParse(raw);
        if (!response.success) throw refused(`inputResponses.${APPROVAL_INPUT_KEY} is not an elicitation result`);
        // Cancelling the form leaves the run waiting (the person may answer later or elsewhere); declining rejects.
        if (response.data.action === 'cancel') return { run, answer: {} as never };
        const decision = response.data.action === 'accept' && response.data.content?.decision === 'approve' ? 'approved' : 'rejected';
        const answered = await answerRunApproval(access, taskId, decision, response.data.content?.note);
        return { run: answered, answer: {} as never };
      }),
    );
    return;
  }
  low.setRequestHandler('tasks/get', { params: TaskIdParams }, async ({ taskId }) => taskV1(await taskRun(access, taskId), rendering) as never);
  low.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async ({ taskId }) =>
    recorded(access, 'tasks/cancel', async () => {
      await taskRun(access, taskId);
      const run = await cancelTaskRun(access, taskId);
      return { run, answer: taskV1(run, rendering) as never };
    }),
  );
  low.setRequestHandler('tasks/result', { params: TaskIdParams }, async ({ taskId }, ctx) => {
    let run = await taskRun(access, taskId);
    const deadline = Date.now() + RESULT_WAIT_MS;
    let delay = 150;
    while (taskStatus(run) === 'working' && Date.now() < deadline && !ctx.mcpReq.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 1.5, 1000);
      run = await taskRun(access, taskId);
    }
    if (taskStatus(run) === 'working' || taskStatus(run) === 'input_required') throw refused(`Task ${taskId} is ${taskStatus(run)}: poll tasks/get`);
    const result = await rendering.result(run);
    return { ...result, _meta: { ...(result._meta as object | undefined), [RELATED_TASK_KEY]: { taskId } } } as never;
  });
}
