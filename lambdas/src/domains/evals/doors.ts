import type { RunSource } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { StoredAgent } from '../agents/agents';
import type { Sandbox } from './sandbox';
import type { StoredScenario } from './scenario-repository';

/** One turn of a scenario to play through a door, with the turns before it. */
export interface TurnToPlay {
  /** The agent as the scenario plays it: the live agent, or its draft's settings over it. */
  agent: StoredAgent;
  scenario: StoredScenario;
  turn: number;
  /** The conversation so far (earlier turns and the agent's answers). */
  history: { role: 'user' | 'assistant'; content: string }[];
  sandbox: Sandbox;
  /** A stable id for the scenario's play in this eval run (the widget's conversation id, the command's run id). */
  playId: string;
  /** The command door: the output schema an `output_schema` expectation asks the run for. */
  schema: Record<string, unknown> | undefined;
}

export interface PlayedTurn {
  answer: string;
  /** The passages the answer rests on. */
  sources: RunSource[];
  /** The command door: the run's structured output and why it could not be shaped. */
  output?: { value: Record<string, unknown> | null; error: string | null };
  usage: { inputTokens: number; outputTokens: number };
}

/**
 * How a scenario reaches the agent: the same code that serves the door it imitates (the widget's reply, the run
 * executor), with the scenario's sandboxed tools. The widget's lives with the widget surface and is handed in by the
 * entry that wires the eval runner.
 */
export type ScenarioDoor = (deps: Deps, turn: TurnToPlay) => Promise<PlayedTurn>;
export type ScenarioDoors = Record<StoredScenario['door'], ScenarioDoor>;
