import { DomainError, type BodyOf } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { checkOutboundUrl } from '../../infra/net/outbound-guard';
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
  emailAnswers?: 'auto' | 'draft';
  identityJwksUrl?: string | null;
  widgetRatePerMinute?: number;
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
  emailAnswers: ['emailAnswers'],
  identityJwksUrl: ['identityJwksUrl'],
  widgetRatePerMinute: ['widgetRatePerMinute'],
};

/** The JWKS is fetched from an address the company chose: it must pass the outbound guard (https, a public host). */
function assertJwksUrl(deps: Deps, url: string): void {
  try {
    checkOutboundUrl(url, { allowLocal: deps.config.webhookAllowLocal });
  } catch (error) {
    throw new DomainError('VALIDATION_ERROR', `identity_jwks_url: ${(error as Error).message}`, { field: 'identity_jwks_url' });
  }
}

/** Changes the given settings of an agent of the workspace in one conditional update: the agent as it now is. */
export async function updateAgentSettings(deps: Deps, workspaceId: string, agentId: string, settings: AgentSettings): Promise<StoredAgent> {
  if (settings.identityJwksUrl) assertJwksUrl(deps, settings.identityJwksUrl);
  const updates = (Object.entries(settings) as [keyof AgentSettings, unknown][])
    .filter(([, value]) => value !== undefined)
    .map(([setting, value]): [string[], unknown] => [PATHS[setting], value]);
  const agent = await updateAgentPaths(deps, workspaceId, agentId, updates);
  if (!agent) throw new DomainError('AGENT_NOT_FOUND', `No agent ${agentId} in this workspace`, { field: 'agent_id' });
  return agent;
}

/** The settings an agents/update body (or a draft's changes, the same fields) names. */
export function settingsFromUpdate(body: Omit<BodyOf<'agentsUpdate'>, 'agent_id'>): AgentSettings {
  return {
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
    emailAnswers: body.email_answers,
    identityJwksUrl: body.identity_jwks_url,
    widgetRatePerMinute: body.widget_rate_per_minute,
  };
}

/** The agent with the given settings over it, in memory (an eval of a draft plays this; nothing is stored). */
export function withSettings(agent: StoredAgent, settings: AgentSettings): StoredAgent {
  const changed = structuredClone(agent) as unknown as Record<string, Record<string, unknown>>;
  for (const [setting, value] of Object.entries(settings) as [keyof AgentSettings, unknown][]) {
    if (value === undefined) continue;
    const [first, second] = PATHS[setting];
    if (second === undefined) (changed as Record<string, unknown>)[first!] = value;
    else changed[first!] = { ...changed[first!], [second]: value };
  }
  return changed as unknown as StoredAgent;
}
