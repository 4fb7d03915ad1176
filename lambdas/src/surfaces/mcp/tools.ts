import { checkOutputSchema, DomainError, RunSourceSchema, schemas } from '@service/shared';
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import * as z from 'zod';
import { getAgentIdentity, listAgents } from '../../domains/agents/agents';
import { getWorkspaceCached } from '../../domains/access/workspace-cache';
import { enqueueNewRun, getRun, listRuns, toRunResponse, type StoredRun } from '../../domains/runs/runs';
import { assertWithinTokenLimit } from '../../domains/usage/usage';
import { hasScope, reachesAgent, type McpAccess } from './access';
import { assertAllowed, keepOutputSchemaJson, needs, ToolRefusal, toolCall } from './tool-kit';
import { registerConversationTools } from './conversation-tools';
import { AGENT_META_KEY, RUN_CARD_URI } from './run-card/resource';
import { answerRunApproval, cancelTaskRun, createTaskResult, registerTaskMethods, taskGeneration, type RunRendering } from './tasks';

/** The longest a tool call waits for a run (ask_agent, get_run); past it the run id comes back to poll with get_run. */
export const MAX_WAIT_SECONDS = 60;
const DEFAULT_ASK_WAIT_SECONDS = 30;
const LIST_RUNS_MAX = 50;

const AgentOut = z.object({ id: z.string(), name: z.string(), role: z.string(), locale: z.string(), skills: z.array(z.string()) });
const RunOut = z.object({
  run_id: z.string(),
  agent_id: z.string(),
  status: z.enum(schemas.RUN_STATUSES),
  autonomy: z.enum(schemas.AUTONOMY_LEVELS),
  instruction: z.string(),
  result_text: z.string().nullable(),
  output: z.record(z.string(), z.unknown()).nullable(),
  output_error: z.string().nullable(),
  sources: z
    .array(RunSourceSchema)
    .describe("The passages of the company's knowledge the answer cites, with their URL and the passage quoted (none when it cites none or does not know)"),
  error: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  pending_action: schemas.PendingAction.nullable().describe(
    'While requires_action: the action waiting for a person (approve it in the dashboard or with agents/command_approve)',
  ),
});
type RunOutput = z.infer<typeof RunOut>;

/** Schemas built once per container (a fresh server is built per request: only the registration is repeated). */
const LIST_AGENTS_INPUT = z.object({});
const LIST_AGENTS_OUTPUT = z.object({ agents: z.array(AgentOut) });
const LIST_RUNS_INPUT = z.object({
  agent_id: z.uuid().describe('The agent (from list_agents)'),
  limit: z.number().int().min(1).max(LIST_RUNS_MAX).default(10),
});
const LIST_RUNS_OUTPUT = z.object({ runs: z.array(RunOut) });
const GET_RUN_INPUT = z.object({
  run_id: z.string().regex(/^cmd_[A-Za-z0-9]{24}$/, 'run_id looks like cmd_ followed by 24 letters and digits'),
  wait_seconds: z.number().min(0).max(MAX_WAIT_SECONDS).default(0),
});
const ASK_AGENT_INPUT = z.object({
  agent_id: z.uuid().describe('The agent (from list_agents)'),
  instruction: z.string().min(1).max(10_000),
  data: z.record(z.string(), z.unknown()).optional().describe('Context for the agent'),
  schema: z.record(z.string(), z.unknown()).optional().describe('The desired shape of output (the REST schema rules)'),
  allow_actions: z.boolean().default(false).describe('Let the agent take real-world actions (needs the agents:act permission)'),
  confirm: z
    .boolean()
    .default(false)
    .describe(
      'Let the agent take real-world actions, each only once a person approves it (needs the agents:act permission): the run waits (requires_action) until approve_run or reject_run answers',
    ),
  wait_seconds: z.number().min(0).max(MAX_WAIT_SECONDS).default(DEFAULT_ASK_WAIT_SECONDS),
});
const ASK_AGENT_OUTPUT = RunOut.extend({ done: z.boolean() });
const RUN_ID = z.string().regex(/^cmd_[A-Za-z0-9]{24}$/, 'run_id looks like cmd_ followed by 24 letters and digits');
const ANSWER_INPUT = z.object({ run_id: RUN_ID, note: z.string().max(500).optional().describe('Why (kept with the decision)') });
const CANCEL_INPUT = z.object({ run_id: RUN_ID });

/** The REST run (agents/command_status) without its token usage and who stopped it. */
function runOut(run: StoredRun): RunOutput {
  const { usage: _usage, cancel_requested_at: _stopAsked, cancelled_by: _stoppedBy, ...rest } = toRunResponse(run);
  return rest as RunOutput;
}

const finished = (run: StoredRun) => run.status === 'completed' || run.status === 'failed' || run.status === 'cancelled';

/** Waits for the run to finish, up to `seconds`, with progress notifications when the client asked for them. */
async function waitForRun(access: McpAccess, run: StoredRun, seconds: number, ctx: ServerContext): Promise<StoredRun> {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  const deadline = Date.now() + seconds * 1000;
  let current = run;
  let delay = 150;
  let step = 0;
  while (!finished(current) && Date.now() < deadline && !ctx.mcpReq.signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))));
    delay = Math.min(delay * 1.5, 1000);
    current = await getRun(access.deps, access.grant.workspaceId, run.runId);
    if (progressToken !== undefined) {
      step += 1;
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress: step, message: `Run ${current.runId} is ${current.status}` },
      });
    }
  }
  return current;
}

/** The run card shows the agent by name; the result's _meta carries it, leaving the structured content as it was. */
const agentMeta = (agent: { id: string; name: string }) => ({ [AGENT_META_KEY]: { id: agent.id, name: agent.name } });

/** get_run and ask_agent answer with a run: hosts that render MCP Apps show it as the run card (older hosts read the flat key). */
const RUN_CARD = { ui: { resourceUri: RUN_CARD_URI }, [RESOURCE_URI_META_KEY]: RUN_CARD_URI };

const runText = (run: StoredRun): string =>
  run.status === 'completed'
    ? // Its result text lists what it cited under the answer (cited-answer.ts), for assistants that read only the text.
      (run.resultText ?? '')
    : run.status === 'requires_action' && run.pendingAction
      ? `The run waits for a person to approve ${run.pendingAction.capability} (${run.pendingAction.reason}; arguments ${run.pendingAction.argumentsJson}) until ${run.pendingAction.expiresAt}; approve or reject it with approve_run or reject_run (run_id ${run.runId}) or in the dashboard, then call get_run with this run_id`
      : finished(run)
        ? `The run ${run.status}${run.error ? `: ${run.error}` : ''}`
        : `The agent is still working (run ${run.runId}, ${run.status}); call get_run with this run_id to get the answer`;

export function registerTools(server: McpServer, access: McpAccess, era: 'legacy' | 'modern'): void {
  const { deps, grant } = access;
  const workspaceId = grant.workspaceId;
  // A run as a task's final tool result: what ask_agent answers once the run has finished.
  const rendering: RunRendering = {
    text: runText,
    result: async (run) => {
      const agent = await getAgentIdentity(deps, workspaceId, run.agentId);
      return {
        content: [{ type: 'text', text: runText(run) }],
        structuredContent: { ...runOut(run), done: finished(run) },
        _meta: agentMeta(agent),
        ...(run.status === 'failed' ? { isError: true } : {}),
      };
    },
  };

  keepOutputSchemaJson(
    server.registerTool(
      'list_agents',
      {
        title: 'List agents',
        description: 'The AI agents of the connected workspace this connection reaches: id, name, role, language and skills.',
        inputSchema: LIST_AGENTS_INPUT,
        outputSchema: LIST_AGENTS_OUTPUT,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        scopeChallenge: needs(access, () => ['agents:read']),
      },
      toolCall(access, 'list_agents', async () => {
        assertAllowed(access, 'read');
        const agents = (await listAgents(deps, workspaceId))
          .filter((agent) => reachesAgent(access, agent.id))
          .map((agent) => ({ id: agent.id, name: agent.name, role: agent.role, locale: agent.locale, skills: agent.skills }));
        return { out: { agents }, text: agents.length ? agents.map((agent) => `${agent.name} (${agent.role}): ${agent.id}`).join('\n') : 'No agents' };
      }),
    ),
  );

  keepOutputSchemaJson(
    server.registerTool(
      'list_runs',
      {
        title: 'List runs',
        description: 'Recent runs of an agent, newest first, with their results.',
        inputSchema: LIST_RUNS_INPUT,
        outputSchema: LIST_RUNS_OUTPUT,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        scopeChallenge: needs(access, () => ['agents:read']),
      },
      toolCall(access, 'list_runs', async ({ agent_id, limit }: { agent_id: string; limit: number }) => {
        assertAllowed(access, 'read', agent_id);
        await getAgentIdentity(deps, workspaceId, agent_id);
        const runs = (await listRuns(deps, workspaceId, agent_id, limit)).map(runOut);
        return { out: { runs }, text: runs.length ? runs.map((run) => `${run.run_id} ${run.status}: ${run.instruction}`).join('\n') : 'No runs yet' };
      }),
    ),
  );

  keepOutputSchemaJson(
    server.registerTool(
      'get_run',
      {
        title: 'Get a run',
        description: `A run's status and result (result_text, output, output_error); waits up to wait_seconds (at most ${MAX_WAIT_SECONDS}) for it to finish.`,
        inputSchema: GET_RUN_INPUT,
        outputSchema: RunOut,
        _meta: RUN_CARD,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        scopeChallenge: ({ request, authInfo }) =>
          authInfo && !authInfo.scopes.includes('agents:read') && !authInfo.scopes.includes('agents:ask')
            ? needs(access, () => ['agents:read'])({ request, authInfo })
            : undefined,
      },
      toolCall(access, 'get_run', async ({ run_id, wait_seconds }: { run_id: string; wait_seconds: number }, ctx) => {
        assertAllowed(access, 'read');
        let run = await getRun(deps, workspaceId, run_id);
        if (!reachesAgent(access, run.agentId)) throw new DomainError('RUN_NOT_FOUND', `No run ${run_id} in this workspace`, { field: 'run_id' });
        if (!hasScope(access, 'agents:read') && run.connectionId !== grant.id)
          throw new ToolRefusal(`Without the permission to read runs, a ${grant.kind === 'key' ? 'key' : 'connection'} reads only the runs it started`);
        if (wait_seconds > 0) run = await waitForRun(access, run, wait_seconds, ctx);
        const agent = await getAgentIdentity(deps, workspaceId, run.agentId);
        return { out: runOut(run), text: runText(run), agentId: run.agentId, runId: run.runId, meta: agentMeta(agent) };
      }),
    ),
  );

  const askAgent = keepOutputSchemaJson(
    server.registerTool(
      'ask_agent',
      {
        title: 'Ask an agent',
        description:
          'Give an agent an instruction (as the REST agents/command does) and wait for its answer. The agent acts read-only unless allow_actions is true, which needs the separate permission to take real-world actions (sending e-mail, creating records). When wait_seconds pass first, the run id comes back: poll it with get_run.',
        inputSchema: ASK_AGENT_INPUT,
        outputSchema: ASK_AGENT_OUTPUT,
        _meta: RUN_CARD,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
        scopeChallenge: needs(access, (args) => (args.allow_actions === true || args.confirm === true ? ['agents:ask', 'agents:act'] : ['agents:ask'])),
      },
      toolCall(
        access,
        'ask_agent',
        async (
          args: {
            agent_id: string;
            instruction: string;
            data?: Record<string, unknown>;
            schema?: Record<string, unknown>;
            allow_actions: boolean;
            confirm: boolean;
            wait_seconds: number;
          },
          ctx,
        ) => {
          assertAllowed(access, 'command', args.agent_id);
          if (args.schema !== undefined) {
            const check = checkOutputSchema(args.schema);
            if (!check.ok) throw new DomainError('SCHEMA_INVALID', `schema${check.path ? ` (${check.path})` : ''}: ${check.message}`);
          }
          const workspace = await getWorkspaceCached(deps, workspaceId);
          if (!workspace) throw new ToolRefusal('The workspace no longer exists');
          const [agent] = await Promise.all([getAgentIdentity(deps, workspaceId, args.agent_id), assertWithinTokenLimit(deps, workspace)]);
          const queued = await enqueueNewRun(deps, {
            workspaceId,
            agentId: agent.id,
            instruction: args.instruction,
            // confirm wins over allow_actions: acting, but only once a person approves each action.
            autonomy: args.confirm ? 'confirm' : args.allow_actions ? 'full' : 'read_only',
            ...(args.data ? { data: args.data } : {}),
            ...(args.schema ? { schema: args.schema } : {}),
            origin: { source: 'mcp', connectionId: grant.id },
            // The run acts for the person's current role, so it is offered only the tools granted to it.
            role: access.role,
          });
          // A client that takes tasks gets the run as a task at once, to follow with tasks/get.
          const generation = taskGeneration(access, ctx);
          if (generation)
            return {
              out: { ...runOut(queued), done: false },
              text: runText(queued),
              agentId: agent.id,
              runId: queued.runId,
              task: createTaskResult(generation, queued, rendering),
            };
          const run = await waitForRun(access, queued, args.wait_seconds, ctx);
          return { out: { ...runOut(run), done: finished(run) }, text: runText(run), agentId: agent.id, runId: run.runId, meta: agentMeta(agent) };
        },
      ),
    ),
  );

  // 2025-11-25 clients task-augment only a tool that says it may (2026-07-28 dropped the field: the server decides).
  if (era === 'legacy') askAgent.execution = { taskSupport: 'optional' };

  const answerTool = (name: 'approve_run' | 'reject_run', decision: 'approved' | 'rejected') =>
    keepOutputSchemaJson(
      server.registerTool(
        name,
        {
          title: decision === 'approved' ? 'Approve a waiting run' : 'Reject a waiting run',
          description:
            decision === 'approved'
              ? 'Approve the action a run waits for (status requires_action, see pending_action): the agent then takes it (a real-world action, e.g. sending e-mail or creating a record). Needs the permission to take real-world actions. The first answer from any door wins.'
              : 'Reject the action a run waits for (status requires_action): the agent goes on without it. Needs the permission to take real-world actions. The first answer from any door wins.',
          inputSchema: ANSWER_INPUT,
          outputSchema: RunOut,
          annotations: { readOnlyHint: false, destructiveHint: decision === 'approved', idempotentHint: false, openWorldHint: decision === 'approved' },
          scopeChallenge: needs(access, () => ['agents:act']),
        },
        toolCall(access, name, async ({ run_id, note }: { run_id: string; note?: string }) => {
          const run = await answerRunApproval(access, run_id, decision, note);
          return {
            out: runOut(run),
            text: `The action ${run.pendingAction?.capability ?? ''} of run ${run.runId} was ${decision}; the run goes on: call get_run with this run_id`,
            agentId: run.agentId,
            runId: run.runId,
          };
        }),
      ),
    );
  answerTool('approve_run', 'approved');
  answerTool('reject_run', 'rejected');

  keepOutputSchemaJson(
    server.registerTool(
      'cancel_run',
      {
        title: 'Stop a run',
        description: 'Stop a run that has not finished (queued, running, or waiting for approval): no further step starts; what it produced so far is kept.',
        inputSchema: CANCEL_INPUT,
        outputSchema: RunOut,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
        scopeChallenge: needs(access, () => ['agents:ask']),
      },
      toolCall(access, 'cancel_run', async ({ run_id }: { run_id: string }) => {
        const run = await cancelTaskRun(access, run_id);
        return { out: runOut(run), text: runText(run), agentId: run.agentId, runId: run.runId };
      }),
    ),
  );

  registerConversationTools(server, access);
  registerTaskMethods(server, access, era, rendering);
}
