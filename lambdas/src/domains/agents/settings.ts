import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { updateAgentPaths, type StoredAgent } from './repository';

/** What the dashboard's Settings screen changes: the fields the widget configuration serves, and who may embed it. */
export interface AgentSettings {
  name?: string;
  role?: string;
  persona?: string;
  locale?: string;
  avatarUrl?: string;
  companyName?: string;
  primaryColor?: string;
  gradientFrom?: string;
  gradientTo?: string;
  showDelay?: number;
  teaserDelay?: number;
  idleNudgeDelay?: number;
  teaserHighlightWord?: string;
  allowedOrigins?: string[];
  handoffEnabled?: boolean;
  handoffKeywords?: string[];
}

/** Where each setting lives in the stored agent (widget-config reads these). */
const PATHS: Record<keyof AgentSettings, string[]> = {
  name: ['name'],
  role: ['role'],
  persona: ['persona'],
  locale: ['locale'],
  avatarUrl: ['avatarUrl'],
  companyName: ['branding', 'companyName'],
  primaryColor: ['branding', 'primaryColor'],
  gradientFrom: ['branding', 'gradientFrom'],
  gradientTo: ['branding', 'gradientTo'],
  showDelay: ['widget', 'showDelay'],
  teaserDelay: ['widget', 'teaserDelay'],
  idleNudgeDelay: ['widget', 'idleNudgeDelay'],
  teaserHighlightWord: ['widget', 'teaserHighlightWord'],
  allowedOrigins: ['allowedOrigins'],
  handoffEnabled: ['handoffEnabled'],
  handoffKeywords: ['handoffKeywords'],
};

/** Changes the given settings of an agent of the workspace in one conditional update: the agent as it now is. */
export async function updateAgentSettings(deps: Deps, workspaceId: string, agentId: string, settings: AgentSettings): Promise<StoredAgent> {
  const updates = (Object.entries(settings) as [keyof AgentSettings, unknown][]).filter(([, value]) => value !== undefined).map(([setting, value]): [string[], unknown] => [PATHS[setting], value]);
  const agent = await updateAgentPaths(deps, workspaceId, agentId, updates);
  if (!agent) throw new DomainError('AGENT_NOT_FOUND', `No agent ${agentId} in this workspace`, { field: 'agent_id' });
  return agent;
}
