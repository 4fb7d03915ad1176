import { EVAL_LIMITS, type Expectation } from '@service/shared';
import type { LanguageModel } from 'ai';
import type { Deps } from '../../infra/deps';
import { searchKnowledge } from '../knowledge/search';
import type { PlayedAgent } from './drafts';
import type { ScenarioDoors } from './doors';
import type { StoredResult } from './eval-run-repository';
import { checkExpectation, type Outcome } from './expectations';
import { judgeTurn } from './judge';
import { Sandbox } from './sandbox';
import type { StoredScenario } from './scenario-repository';

export interface PlayOptions {
  doors: ScenarioDoors;
  /** The model that grades `judge` expectations; undefined when the configured model cannot grade. */
  grader: LanguageModel | undefined;
}

const clip = (text: string) => (text.length > EVAL_LIMITS.transcriptChars ? `${text.slice(0, EVAL_LIMITS.transcriptChars - 1)}…` : text);

/** The output schema a turn's `output_schema` expectation asks the command for. */
const schemaOf = (expect: Expectation[]) => expect.flatMap((expectation) => ('output_schema' in expectation ? [expectation.output_schema] : []))[0];

/**
 * Plays one scenario against the agent through its door, turn after turn, its acting tools sandboxed, and checks
 * every expectation on the reply of its turn. A door that fails (the model did) fails the scenario with the reason.
 * A draft that names its knowledge sources searches those (and the sources open to every agent), not the live agent's.
 */
export async function playScenario(
  deps: Deps,
  { agent, knowledgeSourceIds }: PlayedAgent,
  scenario: StoredScenario,
  evalRunId: string,
  options: PlayOptions,
): Promise<StoredResult> {
  const sandbox = new Sandbox(
    knowledgeSourceIds &&
      (async ({ query, limit }) => ({
        results: await searchKnowledge(deps, { workspaceId: agent.workspaceId, draftSourceIds: knowledgeSourceIds, query, ...(limit ? { limit } : {}) }),
      })),
  );
  const history: { role: 'user' | 'assistant'; content: string }[] = [];
  const result: StoredResult = {
    evalRunId,
    scenarioId: scenario.id,
    name: scenario.name,
    passed: false,
    error: null,
    expectations: [],
    transcript: [],
    usage: { inputTokens: 0, outputTokens: 0 },
  };
  // Each scenario of each eval run plays a conversation of its own (never stored).
  const playId = `${evalRunId}_${scenario.id}`;
  try {
    for (const [index, turn] of scenario.turns.entries()) {
      sandbox.turn = index;
      result.transcript.push({ role: 'user', text: clip(turn.user) });
      const played = await options.doors[scenario.door](deps, { agent, scenario, turn: index, history, sandbox, playId, schema: schemaOf(turn.expect) });
      const calls = sandbox.callsOf(index);
      for (const call of calls)
        result.transcript.push({ role: 'tool', text: call.name, tool: { name: call.name, args: call.args, effect: call.effect, sandboxed: call.sandboxed } });
      result.transcript.push({ role: 'assistant', text: clip(played.answer) });
      result.usage.inputTokens += played.usage.inputTokens;
      result.usage.outputTokens += played.usage.outputTokens;
      for (const expectation of turn.expect) {
        const outcome: Outcome =
          'judge' in expectation
            ? await judgeTurn(options.grader, expectation.judge, { user: turn.user, answer: played.answer })
            : checkExpectation(expectation, { played, calls });
        result.expectations.push({ expectation, turn: index, outcome: outcome.outcome, reason: outcome.outcome === 'passed' ? null : outcome.reason });
      }
      history.push({ role: 'user', content: turn.user }, { role: 'assistant', content: played.answer || '…' });
    }
    result.passed = result.expectations.every((expectation) => expectation.outcome !== 'failed');
  } catch (error) {
    result.error = `The scenario could not be played: ${error instanceof Error ? error.message : String(error)}`;
  }
  return result;
}
