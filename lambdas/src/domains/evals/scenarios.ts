import { DomainError, EVAL_LIMITS, randomBase62, type BodyOf, type DataOf, type Expectation } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { Action } from '../../infra/store/idempotency';
import { findAgent } from '../agents/agents';
import { saysItDoesNotKnow } from '../knowledge/unanswered';
import { conversationTranscript } from '../conversations/agent-conversations';
import { getRun } from '../runs/runs';
import { readTimeline } from '../runs/steps/timeline';
import { deleteScenarioItem, putNewScenario, queryScenarios, readScenario, replaceScenario, type StoredScenario } from './scenario-repository';

type ApiScenario = DataOf<'evalsScenarioCreate'>['scenario'];
type ScenarioFields = Pick<StoredScenario, 'name' | 'door' | 'page' | 'locale' | 'identity' | 'turns'>;

export const toScenarioResponse = (scenario: StoredScenario): ApiScenario => ({
  id: scenario.id,
  agent_id: scenario.agentId,
  name: scenario.name,
  door: scenario.door,
  ...(scenario.page ? { page: scenario.page } : {}),
  ...(scenario.locale ? { locale: scenario.locale } : {}),
  ...(scenario.identity ? { identity: scenario.identity } : {}),
  turns: scenario.turns,
  created_at: scenario.createdAt,
  updated_at: scenario.updatedAt,
});

/**
 * The markers a widget reply cites a page or link with (`[Page:label|/path]`, `[Link:label|https://…]`): what it cited,
 * unless it says it does not know (its marker is then the contact page it offers, and the answer has no sources).
 */
const CITATION = /\[(?:Page|Link):[^|\]]*\|([^\]]+)\]/g;
const citedIn = (text: string): string[] => [...new Set([...text.matchAll(CITATION)].map((match) => match[1]!.trim()))];
const clip = (text: string) => text.slice(0, EVAL_LIMITS.userMessageChars);

/**
 * A scenario from a conversation of the workspace (an e-mail one plays through the `email` door): one turn per customer message, each expecting what the agent
 * did after it: the pages it cited, a handoff when it asked for a person, otherwise no action (the widget's actions
 * wait for the visitor, so they are not in the transcript). The company edits it from there.
 */
async function fromConversation(deps: Deps, workspaceId: string, agentId: string, conversationId: string): Promise<ScenarioFields> {
  const { conversation, messages } = await conversationTranscript(deps, workspaceId, conversationId);
  if (conversation.agentId !== agentId)
    throw new DomainError('VALIDATION_ERROR', `The conversation ${conversationId} is another agent's`, { field: 'from_conversation_id' });
  const turns: ScenarioFields['turns'] = [];
  for (const message of messages) {
    if (message.role === 'user') turns.push({ user: clip(message.content), expect: [] });
    const turn = turns.at(-1);
    if (!turn) continue;
    if (message.role === 'assistant' && !saysItDoesNotKnow(message.content)) for (const cited of citedIn(message.content)) turn.expect.push({ cites: cited });
    if (message.role === 'event' && message.event === 'handoff_requested' && conversation.handling.handoff?.reason === 'agent')
      turn.expect.push({ hands_off: true });
  }
  if (turns.length === 0) throw new DomainError('VALIDATION_ERROR', 'The conversation has no visitor message to play', { field: 'from_conversation_id' });
  for (const turn of turns) if (!turn.expect.some((expectation) => 'hands_off' in expectation)) turn.expect.push({ no_action: true });
  return {
    name: `Conversation of ${conversation.startedAt.slice(0, 10)}`,
    door: conversation.channel === 'email' ? 'email' : 'widget',
    ...(conversation.page ? { page: conversation.page } : {}),
    turns: turns.slice(0, EVAL_LIMITS.turnsPerScenario).map((turn) => ({ ...turn, expect: turn.expect.slice(0, EVAL_LIMITS.expectationsPerTurn) })),
  };
}

/** A scenario from a run: its instruction as a command, expecting the tools it called, the passages it cited and, when it had one, its output schema. */
async function fromRun(deps: Deps, workspaceId: string, agentId: string, runId: string): Promise<ScenarioFields> {
  const run = await getRun(deps, workspaceId, runId);
  if (run.agentId !== agentId) throw new DomainError('VALIDATION_ERROR', `The run ${runId} is another agent's`, { field: 'from_run_id' });
  const { steps } = await readTimeline(deps, run, undefined, 100);
  const tools = [...new Set(steps.flatMap((step) => (step.type === 'tool_call' ? [step.capability] : [])))];
  const expect: Expectation[] = [
    ...(tools.length ? tools.map((capability) => ({ tool_called: capability })) : [{ no_action: true as const }]),
    ...(run.sources ?? []).map((source) => ({ cites: source.url ?? source.title })),
    ...(run.schema ? [{ output_schema: run.schema }] : []),
  ];
  return { name: `Run ${runId}`, door: 'command', turns: [{ user: clip(run.instruction), expect: expect.slice(0, EVAL_LIMITS.expectationsPerTurn) }] };
}

async function requireAgentOf(deps: Deps, workspaceId: string, agentId: string): Promise<void> {
  if (!(await findAgent(deps, workspaceId, agentId))) throw new DomainError('AGENT_NOT_FOUND', `No agent ${agentId} in this workspace`, { field: 'agent_id' });
}

/** evals/scenario_create: written by hand, or saved from a conversation or a run. A retried create answers the one stored. */
export async function createScenario(deps: Deps, workspaceId: string, body: BodyOf<'evalsScenarioCreate'>, action: Action): Promise<StoredScenario> {
  await requireAgentOf(deps, workspaceId, body.agent_id);
  if ((await queryScenarios(deps, body.agent_id)).length >= EVAL_LIMITS.scenariosPerAgent) {
    throw new DomainError('VALIDATION_ERROR', `An agent has at most ${EVAL_LIMITS.scenariosPerAgent} scenarios`, { field: 'agent_id' });
  }
  const fields: ScenarioFields =
    'from_conversation_id' in body
      ? await fromConversation(deps, workspaceId, body.agent_id, body.from_conversation_id)
      : 'from_run_id' in body
        ? await fromRun(deps, workspaceId, body.agent_id, body.from_run_id)
        : body;
  const at = action.at.toISOString();
  const scenario: StoredScenario = {
    ...fields,
    ...(body.name ? { name: body.name } : {}),
    agentId: body.agent_id,
    id: `scn_${randomBase62(16, action.seed)}`,
    workspaceId,
    createdAt: at,
    updatedAt: at,
  };
  if (await putNewScenario(deps, scenario)) return scenario;
  const stored = await readScenario(deps, scenario.id);
  if (!stored || stored.workspaceId !== workspaceId)
    throw new DomainError('IDEMPOTENCY_CONFLICT', "The scenario this request names is not this workspace's", { field: 'agent_id' });
  return stored;
}

export async function listScenarios(deps: Deps, workspaceId: string, agentId: string): Promise<StoredScenario[]> {
  await requireAgentOf(deps, workspaceId, agentId);
  return (await queryScenarios(deps, agentId)).filter((scenario) => scenario.workspaceId === workspaceId);
}

const notFound = (scenarioId: string) => new DomainError('NOT_FOUND', `No scenario ${scenarioId} in this workspace`, { field: 'scenario_id' });

/** evals/scenario_update: the scenario replaced by the body's (its id, agent and creation stay). */
export async function updateScenario(deps: Deps, workspaceId: string, body: BodyOf<'evalsScenarioUpdate'>): Promise<StoredScenario> {
  const stored = await readScenario(deps, body.scenario_id);
  if (!stored || stored.workspaceId !== workspaceId) throw notFound(body.scenario_id);
  const { scenario_id: _id, ...fields } = body;
  const scenario: StoredScenario = {
    ...fields,
    agentId: stored.agentId,
    id: stored.id,
    workspaceId,
    createdAt: stored.createdAt,
    updatedAt: deps.now().toISOString(),
  };
  if (!(await replaceScenario(deps, scenario))) throw notFound(body.scenario_id);
  return scenario;
}

export async function deleteScenario(deps: Deps, workspaceId: string, scenarioId: string): Promise<void> {
  if (!(await deleteScenarioItem(deps, workspaceId, scenarioId))) throw notFound(scenarioId);
}
