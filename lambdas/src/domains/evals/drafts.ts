import { DomainError, type BodyOf, type DataOf } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { findAgent, setAgentSkills, type StoredAgent } from '../agents/agents';
import { settingsFromUpdate, updateAgentSettings, withSettings } from '../agents/settings';
import { listSources, updateSource } from '../knowledge/sources';
import { deleteDraftAsRead, readDraft, writeDraft, type StoredDraft } from './draft-repository';
import { latestEvalRun } from './eval-runs';

type DraftChanges = Omit<BodyOf<'agentsDraftUpdate'>, 'agent_id'>;
/** The nested settings a draft update may give in part: merged into the draft's, not replacing them. */
const NESTED = ['colors', 'widget', 'handoff'] as const;

export const toDraftResponse = (draft: StoredDraft): DataOf<'agentsDraftGet'>['draft'] => ({
  agent_id: draft.agentId,
  changes: draft.changes,
  updated_at: draft.updatedAt,
});

async function requireAgent(deps: Deps, workspaceId: string, agentId: string): Promise<StoredAgent> {
  const agent = await findAgent(deps, workspaceId, agentId);
  if (!agent) throw new DomainError('AGENT_NOT_FOUND', `No agent ${agentId} in this workspace`, { field: 'agent_id' });
  return agent;
}

async function requireDraft(deps: Deps, workspaceId: string, agentId: string): Promise<StoredDraft> {
  const draft = await readDraft(deps, agentId);
  if (!draft || draft.workspaceId !== workspaceId)
    throw new DomainError('DRAFT_NOT_FOUND', `The agent ${agentId} has no draft (agents/draft_update makes one)`, { field: 'agent_id' });
  return draft;
}

/** Merges the body's changes into the agent's draft (made on the first update); the live agent is untouched. */
export async function updateDraft(deps: Deps, workspaceId: string, body: BodyOf<'agentsDraftUpdate'>): Promise<StoredDraft> {
  await requireAgent(deps, workspaceId, body.agent_id);
  const { agent_id: agentId, ...changes } = body;
  const earlier = (await readDraft(deps, agentId))?.changes ?? {};
  const merged: Record<string, unknown> = { ...earlier, ...changes };
  for (const key of NESTED) if (changes[key] && earlier[key]) merged[key] = { ...(earlier[key] as object), ...changes[key] };
  const draft: StoredDraft = { agentId, workspaceId, changes: merged, updatedAt: deps.now().toISOString() };
  if (!(await writeDraft(deps, draft))) throw new DomainError('AGENT_NOT_FOUND', `No agent ${agentId} in this workspace`, { field: 'agent_id' });
  return draft;
}

export const getDraft = (deps: Deps, workspaceId: string, agentId: string): Promise<StoredDraft> => requireDraft(deps, workspaceId, agentId);

/** The agent an eval plays: its settings and skills, and the knowledge sources it searches when a draft names them. */
export interface PlayedAgent {
  agent: StoredAgent;
  knowledgeSourceIds?: readonly string[];
}

/** The agent as its draft would make it, in memory (nothing published): an eval of the draft plays this. */
export async function agentAsDrafted(deps: Deps, agent: StoredAgent): Promise<PlayedAgent> {
  const draft = await readDraft(deps, agent.id);
  if (!draft || draft.workspaceId !== agent.workspaceId) return { agent };
  const changes = draft.changes as DraftChanges;
  const drafted = withSettings(agent, settingsFromUpdate(changes));
  return {
    agent: changes.skills ? { ...drafted, skills: changes.skills } : drafted,
    ...(changes.knowledge_source_ids ? { knowledgeSourceIds: changes.knowledge_source_ids } : {}),
  };
}

/** Why the latest eval run of the draft does not let it be published, or undefined when it passed. */
async function suiteRefusal(deps: Deps, draft: StoredDraft): Promise<string | undefined> {
  const latest = await latestEvalRun(deps, draft.agentId, { draft: true });
  if (!latest || latest.createdAt < draft.updatedAt) return 'the draft has no eval run since its last change: run evals/run with draft true';
  if (latest.status !== 'completed') return `the latest eval run of the draft is ${latest.status}`;
  if (latest.failed > 0) return `${latest.failed} of ${latest.scenarioIds.length} scenarios failed in the latest eval run of the draft (${latest.evalRunId})`;
  return undefined;
}

/** Gives the live agent the knowledge sources the draft names (a source open to every agent stays so). */
async function publishSources(deps: Deps, workspaceId: string, agentId: string, sourceIds: string[]): Promise<void> {
  for (const source of await listSources(deps, workspaceId)) {
    if (source.agentIds === null) continue;
    const wanted = sourceIds.includes(source.id);
    if (wanted === source.agentIds.includes(agentId)) continue;
    await updateSource(deps, workspaceId, {
      source_id: source.id,
      agent_ids: wanted ? [...source.agentIds, agentId] : source.agentIds.filter((id) => id !== agentId),
    });
  }
}

/**
 * Makes the draft live: its settings in one conditional update of the agent, then its skills and knowledge sources,
 * then the draft is removed (unless it changed meanwhile). With `require_suite_pass`, only when the latest eval run of
 * the draft, made since its last change, passed every scenario (409 EVAL_SUITE_NOT_PASSED otherwise).
 */
export async function publishDraft(deps: Deps, workspaceId: string, body: BodyOf<'agentsDraftPublish'>): Promise<StoredAgent> {
  const draft = await requireDraft(deps, workspaceId, body.agent_id);
  if (body.require_suite_pass) {
    const refusal = await suiteRefusal(deps, draft);
    if (refusal) throw new DomainError('EVAL_SUITE_NOT_PASSED', `Not published: ${refusal}`, { field: 'agent_id' });
  }
  const changes = draft.changes as DraftChanges;
  let agent = await updateAgentSettings(deps, workspaceId, draft.agentId, settingsFromUpdate(changes));
  if (changes.skills) {
    await setAgentSkills(deps, agent, changes.skills);
    agent = { ...agent, skills: changes.skills };
  }
  if (changes.knowledge_source_ids) await publishSources(deps, workspaceId, agent.id, changes.knowledge_source_ids);
  await deleteDraftAsRead(deps, draft);
  return agent;
}
