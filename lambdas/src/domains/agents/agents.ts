import { DomainError, findPreset, newUuid, WIDGET_AGENT_RATE, type AgentPreset } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { cached } from '../../infra/cache/short-cache';
import {
  createAgentOrFind,
  findAgentItemById,
  findAgentItemByEmail,
  getAgentItem,
  putNewAgent,
  queryAgents,
  setAgentFields,
  type StoredAgent,
} from './repository';

/**
 * The agents domain: a workspace's agents (instructions, model settings, handoff, allowed origins, the widget's
 * settings) and how a widget visitor is identified to one (visitor-identity.ts).
 */
export type { StoredAgent } from './repository';

/** The widget's messages a minute to the agent from all visitors: its own setting, else the platform's (a busy site's). */
export const widgetRateOf = (agent: StoredAgent, platformDefault: number = WIDGET_AGENT_RATE.defaultPerMinute): number =>
  agent.widgetRatePerMinute ?? platformDefault;

/** Whether the agent offers people, and the words that hand a conversation to them at once. */
export const handoffSettingsOf = (agent: StoredAgent): { enabled: boolean; keywords: string[] } => ({
  enabled: agent.handoffEnabled ?? true,
  keywords: agent.handoffKeywords ?? [],
});

export function toAgentResponse(agent: StoredAgent) {
  return {
    id: agent.id,
    name: agent.name,
    role: agent.role,
    preset: agent.preset,
    persona: agent.persona,
    email: agent.email,
    locale: agent.locale,
    avatar_url: agent.avatarUrl,
    skills: agent.skills,
    created_at: agent.createdAt,
    company_name: agent.branding.companyName,
    colors: { primary: agent.branding.primaryColor, gradient_from: agent.branding.gradientFrom, gradient_to: agent.branding.gradientTo },
    widget: { show_delay_ms: agent.widget.showDelay, teaser_delay_ms: agent.widget.teaserDelay, idle_nudge_delay_ms: agent.widget.idleNudgeDelay },
    teaser_word: agent.widget.teaserHighlightWord,
    allowed_origins: agent.allowedOrigins,
    handoff: handoffSettingsOf(agent),
    email_answers: agent.emailAnswers ?? 'auto',
    widget_rate_per_minute: widgetRateOf(agent),
    identity_jwks_url: agent.identityJwksUrl ?? null,
  };
}

const slug = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'agent';

export interface HireOptions {
  preset: string;
  name?: string;
  role?: string;
  persona?: string;
  locale?: string;
  companyName?: string;
  allowedOrigins?: string[];
  id?: string;
}

/** The platform's own avatar: an animated SVG with a fragment view per expression (`avatar.svg#thinking`). */
export const DEFAULT_AVATAR = { url: '/embed/avatar.svg', expressions: ['idle', 'thinking', 'talking'] } as const;

/** The expressions an agent's avatar declares: the default avatar's views; an avatar of the customer's own has none. */
export const avatarExpressionsOf = (avatarUrl: string): string[] => (avatarUrl === DEFAULT_AVATAR.url ? [...DEFAULT_AVATAR.expressions] : []);

export function buildAgent(deps: Deps, workspaceId: string, options: HireOptions): StoredAgent {
  const preset: AgentPreset | undefined = findPreset(options.preset);
  if (!preset) throw new DomainError('VALIDATION_ERROR', `Unknown preset ${JSON.stringify(options.preset)}; see agents/presets`, { field: 'preset' });
  const id = options.id ?? newUuid();
  const name = options.name ?? preset.name;
  return {
    workspaceId,
    id,
    name,
    role: options.role ?? preset.role,
    preset: preset.id,
    persona: options.persona ?? preset.persona,
    email: `${slug(name)}.${id.slice(0, 8)}@${deps.config.agentMailDomain}`,
    locale: options.locale ?? 'en',
    avatarUrl: DEFAULT_AVATAR.url,
    skills: [...preset.skills],
    branding: { companyName: options.companyName ?? 'Your company', primaryColor: '#2563eb', gradientFrom: '#2563eb', gradientTo: '#7c3aed' },
    widget: { showDelay: 2000, teaserDelay: 5000, idleNudgeDelay: 30000, teaserHighlightWord: name },
    allowedOrigins: options.allowedOrigins ?? [],
    createdAt: deps.now().toISOString(),
  };
}

/** Stores a new agent; `ifAbsent` makes seeding idempotent. */
/** Hires an agent under the id its options name; a retry of the same action finds the agent it already hired. */
export async function hireAgent(deps: Deps, workspaceId: string, options: HireOptions): Promise<StoredAgent> {
  return createAgentOrFind(deps, buildAgent(deps, workspaceId, options));
}

export async function putAgent(deps: Deps, agent: StoredAgent, ifAbsent = false): Promise<void> {
  if (!(await putNewAgent(deps, agent)) && !ifAbsent) throw new Error(`agent ${agent.id} exists already`);
}

export async function listAgents(deps: Deps, workspaceId: string): Promise<StoredAgent[]> {
  return (await queryAgents(deps, workspaceId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The agent of this workspace; another workspace's agent is as unknown as a missing one. */
export async function getAgent(deps: Deps, workspaceId: string, agentId: string): Promise<StoredAgent> {
  const agent = await getAgentItem(deps, workspaceId, agentId);
  if (!agent) throw new DomainError('AGENT_NOT_FOUND', `No agent ${agentId} in this workspace`, { field: 'agent_id' });
  return agent;
}

/** An agent's identity for commands; agents are never deleted, so who they are can be kept for a minute per container. */
export const getAgentIdentity = (deps: Deps, workspaceId: string, agentId: string): Promise<Pick<StoredAgent, 'id' | 'name'>> =>
  cached(deps, `agent:${workspaceId}:${agentId}`, 60_000, async () => {
    const { id, name } = await getAgent(deps, workspaceId, agentId);
    return { id, name };
  });

/** Looks an agent up by its public UUID alone (the widget knows nothing else). */
export const findAgentById = (deps: Deps, agentId: string): Promise<StoredAgent | undefined> => findAgentItemById(deps, agentId);
/** The agent whose own address this is (lower case), if any. */
export const findAgentByEmail = (deps: Deps, email: string): Promise<StoredAgent | undefined> => findAgentItemByEmail(deps, email);

/** An agent of a workspace, or undefined: a GetItem, where findAgentById needs a Query of an index. */
export const findAgent = (deps: Deps, workspaceId: string, agentId: string): Promise<StoredAgent | undefined> => getAgentItem(deps, workspaceId, agentId);

export async function setAgentSkills(deps: Deps, agent: StoredAgent, skills: string[]): Promise<void> {
  if (!(await setAgentFields(deps, agent.workspaceId, agent.id, { skills })))
    throw new DomainError('AGENT_NOT_FOUND', `No agent ${agent.id}`, { field: 'agent_id' });
}
