import { toAgentResponse } from '../../../domains/agents/agents';
import { getDraft, publishDraft, toDraftResponse, updateDraft } from '../../../domains/evals/drafts';
import { evalRunStatus, startEvalRun, toEvalRunResponse } from '../../../domains/evals/eval-runs';
import { createScenario, deleteScenario, listScenarios, toScenarioResponse, updateScenario } from '../../../domains/evals/scenarios';
import type { EndpointHandlers } from './types';

/** evals/*: served with conversations/* (conversations-api.ts), since saving a scenario reads a visitor's conversation. */
export type EvalEndpoint = 'evalsScenarioCreate' | 'evalsScenarioList' | 'evalsScenarioUpdate' | 'evalsScenarioDelete' | 'evalsRun' | 'evalsRunStatus';

export const evalEndpoints: EndpointHandlers<EvalEndpoint> = {
  evalsScenarioCreate: async ({ deps, workspace, body, action }) => ({
    data: { scenario: toScenarioResponse(await createScenario(deps, workspace.id, body, action)) },
  }),
  evalsScenarioList: async ({ deps, workspace, query }) => ({
    data: { scenarios: (await listScenarios(deps, workspace.id, query.agent_id)).map(toScenarioResponse) },
  }),
  evalsScenarioUpdate: async ({ deps, workspace, body }) => ({ data: { scenario: toScenarioResponse(await updateScenario(deps, workspace.id, body)) } }),
  evalsScenarioDelete: async ({ deps, workspace, body }) => {
    await deleteScenario(deps, workspace.id, body.scenario_id);
    return { data: { deleted: true, scenario_id: body.scenario_id } };
  },
  evalsRun: async ({ deps, workspace, body, action }) => {
    const run = await startEvalRun(deps, workspace.id, body, action);
    return {
      data: { eval_run: toEvalRunResponse(run) },
      msg: `Playing ${run.scenarioIds.length} scenarios against the ${run.draft ? 'draft' : 'live agent'}; acting tools are recorded, never performed`,
    };
  },
  evalsRunStatus: async ({ deps, workspace, query }) => ({ data: await evalRunStatus(deps, workspace.id, query.eval_run_id) }),
};

/** agents/draft_*: the Api function's, beside agents/update. */
export const draftEndpoints: EndpointHandlers<'agentsDraftUpdate' | 'agentsDraftGet' | 'agentsDraftPublish'> = {
  agentsDraftUpdate: async ({ deps, workspace, body }) => ({
    data: { draft: toDraftResponse(await updateDraft(deps, workspace.id, body)) },
    msg: 'Draft saved; the live agent is unchanged until you publish',
  }),
  agentsDraftGet: async ({ deps, workspace, query }) => ({ data: { draft: toDraftResponse(await getDraft(deps, workspace.id, query.agent_id)) } }),
  agentsDraftPublish: async ({ deps, workspace, body }) => {
    const agent = await publishDraft(deps, workspace.id, body);
    return { data: { agent: toAgentResponse(agent) }, msg: `The draft of ${agent.name} is live` };
  },
};
