import type { Deps } from '../../../infra/deps';
import { noteIfUnanswered, type KnowledgeTurn } from '../../knowledge/unanswered';
import { recordUsage } from '../../usage/usage';

/**
 * What every answer of an agent leaves behind, a widget reply's (chat-handler.ts) and a finished run's
 * (run-consumer.ts) alike: its question noted when the knowledge left it unanswered (a side note, never the answer's
 * failure), and its tokens counted in the day's usage.
 */
export async function afterAnswer(
  deps: Deps,
  answer: {
    workspaceId: string;
    agentId: string;
    usage?: { inputTokens: number; outputTokens: number } | undefined;
    unanswered?: { turn: KnowledgeTurn; question: string; language: string } | undefined;
  },
): Promise<void> {
  const { workspaceId, agentId, usage, unanswered } = answer;
  if (unanswered) await noteIfUnanswered(deps, unanswered.turn, { workspaceId, agentId, question: unanswered.question, language: unanswered.language });
  if (usage) await recordUsage(deps, workspaceId, agentId, usage);
}
