import { AGENT_PRESETS, ApiError, checkOutputSchema, newUuid } from '@service/shared';
import { getAgent, getAgentIdentity, hireAgent, listAgents, toAgentResponse } from '../../../domains/agents/agents';
import { rotateIdentitySecret } from '../../../domains/agents/visitor-identity';
import { assertWithinTokenLimit } from '../../../domains/usage/usage';
import { enqueueNewRun, getRun, listRuns, toRunResponse } from '../../../domains/runs/runs';
import { cancelRun } from '../../../domains/runs/cancel-run';
import { readTimeline } from '../../../domains/runs/steps/timeline';
import { agentsCommandStream } from './command-stream';
import type { EndpointHandlers } from './types';

type AgentEndpoints =
  | 'agentsList'
  | 'agentsGet'
  | 'agentsCreate'
  | 'agentsPresets'
  | 'agentsCommand'
  | 'agentsCommandStatus'
  | 'agentsCommandStream'
  | 'agentsCommandCancel'
  | 'agentsRuns'
  | 'agentsIdentitySecret';

export const agentEndpoints: EndpointHandlers<AgentEndpoints> = {
  agentsList: async ({ deps, workspace }) => ({ data: { agents: (await listAgents(deps, workspace.id)).map(toAgentResponse) } }),

  agentsGet: async ({ deps, workspace, query }) => ({ data: { agent: toAgentResponse(await getAgent(deps, workspace.id, query.agent_id)) } }),

  agentsCreate: async ({ deps, workspace, body, action }) => {
    const agent = await hireAgent(deps, workspace.id, { ...body, companyName: workspace.name, id: newUuid(action.seed) });
    return { data: { agent: toAgentResponse(agent) }, msg: `Hired ${agent.name} (${agent.role})` };
  },

  agentsPresets: async () => ({
    data: { presets: AGENT_PRESETS.map(({ id, name, role, description, skills }) => ({ id, name, role, description, skills })) },
  }),

  agentsCommand: async ({ deps, workspace, body, action, tokensUsed, session, role }) => {
    if (body.schema !== undefined) {
      const check = checkOutputSchema(body.schema);
      if (!check.ok) throw new ApiError('SCHEMA_INVALID', check.message, { field: check.path });
    }
    const [agent] = await Promise.all([getAgentIdentity(deps, workspace.id, body.agent_id), assertWithinTokenLimit(deps, workspace, tokensUsed)]);
    const run = await enqueueNewRun(
      deps,
      {
        workspaceId: workspace.id,
        agentId: agent.id,
        instruction: body.instruction,
        ...(body.autonomy ? { autonomy: body.autonomy } : {}),
        ...(body.data ? { data: body.data } : {}),
        ...(body.schema ? { schema: body.schema } : {}),
        // A member commanding with a session: the run acts for their role (a company-defined one included), so it is
        // offered only the tools granted to it. An API key acts as admin.
        ...(session && role ? { role } : {}),
      },
      action,
    );
    return {
      data: { run: { run_id: run.runId, status: run.status, autonomy: run.autonomy, agent_id: agent.id, created_at: run.createdAt } },
      msg: `Command queued for ${agent.name}; poll agents/command_status with run_id ${run.runId}`,
    };
  },

  agentsIdentitySecret: async ({ deps, workspace, body }) => ({
    data: { agent_id: body.agent_id, identity_secret: await rotateIdentitySecret(deps, workspace.id, body.agent_id) },
    msg: 'Store the identity secret on your server; it is not shown again',
  }),

  agentsCommandStatus: async ({ deps, workspace, query }) => {
    const run = await getRun(deps, workspace.id, query.run_id);
    const after = query.steps_cursor === undefined ? undefined : Number(query.steps_cursor);
    const page = await readTimeline(deps, run, after, query.steps_limit);
    const next = page.complete ? null : String(page.steps.at(-1)?.seq ?? after ?? 0);
    return { data: { ...toRunResponse(run), steps: page.steps, steps_next_cursor: next } };
  },

  agentsCommandStream,

  agentsCommandCancel: async ({ deps, workspace, body, session }) => ({
    data: toRunResponse(await cancelRun(deps, workspace.id, body.run_id, session ? session.userId : 'api_key')),
    msg: 'Run cancelled: no further model turn or tool call starts',
  }),

  agentsRuns: async ({ deps, workspace, query }) => {
    await getAgent(deps, workspace.id, query.agent_id);
    return { data: { runs: (await listRuns(deps, workspace.id, query.agent_id, query.limit)).map(toRunResponse) } };
  },
};
