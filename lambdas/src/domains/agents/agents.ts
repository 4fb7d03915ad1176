import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError, findPreset, newUuid, type AgentPreset } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { createOrFind, ifConditionHolds } from '../../infra/store/dynamo';
import { cached } from '../../infra/cache/short-cache';

export interface StoredAgent {
  workspaceId: string;
  id: string;
  name: string;
  role: string;
  preset: string;
  persona: string;
  /** The agent's own sending address (the e-mail skill sends from it). */
  email: string;
  locale: string;
  avatarUrl: string;
  skills: string[];
  branding: { companyName: string; primaryColor: string; gradientFrom: string; gradientTo: string };
  widget: { showDelay: number; teaserDelay: number; idleNudgeDelay: number; teaserHighlightWord: string };
  /** Origins allowed to embed the widget; `http://localhost:*` style wildcards are allowed for ports. */
  allowedOrigins: string[];
  /** Lets the widget chat answer requests without an `Origin` header (a server calling it); off unless set. */
  widgetServerSide?: boolean;
  createdAt: string;
}

export const AGENT_EMAIL_DOMAIN = 'agents.service.local';

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
  };
}

const slug = (value: string) => value.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'agent';

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
    email: `${slug(name)}.${id.slice(0, 8)}@${AGENT_EMAIL_DOMAIN}`,
    locale: options.locale ?? 'en',
    avatarUrl: '/embed/avatar.svg',
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
  const built = buildAgent(deps, workspaceId, options);
  return (await createOrFind(deps.store, 'agents', built, { workspaceId, id: built.id })).item;
}

export async function putAgent(deps: Deps, agent: StoredAgent, ifAbsent = false): Promise<void> {
  const put = deps.store.doc.send(new PutCommand({ TableName: deps.store.table('agents'), Item: agent, ConditionExpression: 'attribute_not_exists(id)' }));
  await (ifAbsent ? ifConditionHolds(put) : put);
}

export async function listAgents(deps: Deps, workspaceId: string): Promise<StoredAgent[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({ TableName: deps.store.table('agents'), KeyConditionExpression: 'workspaceId = :w', ExpressionAttributeValues: { ':w': workspaceId } }),
  );
  return ((result.Items ?? []) as StoredAgent[]).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The agent of this workspace; another workspace's agent is as unknown as a missing one. */
export async function getAgent(deps: Deps, workspaceId: string, agentId: string): Promise<StoredAgent> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('agents'), Key: { workspaceId, id: agentId } }));
  if (!result.Item) throw new DomainError('AGENT_NOT_FOUND', `No agent ${agentId} in this workspace`, { field: 'agent_id' });
  return result.Item as StoredAgent;
}

/** An agent's identity for commands; agents are never deleted, so who they are can be kept for a minute per container. */
export const getAgentIdentity = (deps: Deps, workspaceId: string, agentId: string): Promise<Pick<StoredAgent, 'id' | 'name'>> =>
  cached(deps, `agent:${workspaceId}:${agentId}`, 60_000, async () => {
    const { id, name } = await getAgent(deps, workspaceId, agentId);
    return { id, name };
  });

/** Looks an agent up by its public UUID alone (the widget knows nothing else). */
export async function findAgentById(deps: Deps, agentId: string): Promise<StoredAgent | undefined> {
  const result = await deps.store.doc.send(
    new QueryCommand({ TableName: deps.store.table('agents'), IndexName: 'byId', KeyConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': agentId } }),
  );
  return result.Items?.[0] as StoredAgent | undefined;
}

export async function setAgentSkills(deps: Deps, agent: StoredAgent, skills: string[]): Promise<void> {
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.table('agents'),
      Key: { workspaceId: agent.workspaceId, id: agent.id },
      UpdateExpression: 'SET skills = :skills',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeValues: { ':skills': skills },
    }),
  );
}
