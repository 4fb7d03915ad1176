import { agentInsights } from '../../../domains/insights/insights';
import type { EndpointHandlers } from './types';

export const insightsEndpoints: EndpointHandlers<'insightsAgent'> = {
  insightsAgent: async ({ deps, workspace, query }) => ({ data: await agentInsights(deps, workspace.id, query) }),
};
