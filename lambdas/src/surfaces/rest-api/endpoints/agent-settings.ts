import { toAgentResponse } from '../../../domains/agents/agents';
import { updateAgentSettings } from '../../../domains/agents/settings';
import type { EndpointHandlers } from './types';

/** The dashboard's Settings screen: what the widget shows, its timings, and the origins that may embed it. */
export const agentSettingsEndpoints: EndpointHandlers<'agentsUpdate'> = {
  agentsUpdate: async ({ deps, workspace, body }) => {
    const agent = await updateAgentSettings(deps, workspace.id, body.agent_id, {
      name: body.name,
      role: body.role,
      persona: body.persona,
      locale: body.locale,
      avatarUrl: body.avatar_url,
      companyName: body.company_name,
      primaryColor: body.colors?.primary,
      gradientFrom: body.colors?.gradient_from,
      gradientTo: body.colors?.gradient_to,
      showDelay: body.widget?.show_delay_ms,
      teaserDelay: body.widget?.teaser_delay_ms,
      idleNudgeDelay: body.widget?.idle_nudge_delay_ms,
      teaserHighlightWord: body.teaser_word,
      allowedOrigins: body.allowed_origins,
      handoffEnabled: body.handoff?.enabled,
      handoffKeywords: body.handoff?.keywords,
    });
    return { data: { agent: toAgentResponse(agent) }, msg: `Settings of ${agent.name} saved; the widget shows them within a few minutes (its configuration is cached)` };
  },
};
