import { toAgentResponse } from '../../../domains/agents/agents';
import { settingsFromUpdate, updateAgentSettings } from '../../../domains/agents/settings';
import type { EndpointHandlers } from './types';

/** The dashboard's Settings screen: what the widget shows, its timings, and the origins that may embed it. */
export const agentSettingsEndpoints: EndpointHandlers<'agentsUpdate'> = {
  agentsUpdate: async ({ deps, workspace, body }) => {
    const agent = await updateAgentSettings(deps, workspace.id, body.agent_id, settingsFromUpdate(body));
    return {
      data: { agent: toAgentResponse(agent) },
      msg: `Settings of ${agent.name} saved; the widget shows them within a few minutes (its configuration is cached)`,
    };
  },
};
