import type { TextStreamPart, ToolSet } from 'ai';
import { toolErrorOf } from '../../domains/runs/steps/turn-steps';

/**
 * Counts a reply's calls of the agent's skill tools (not the widget's own navigate, ui_action, handoff) and how many
 * failed (thrown, or answered with an error), from its stream's parts: the insights' tool measures.
 */
export function toolTally(skillTools: Iterable<string>) {
  const names = new Set(skillTools);
  const tally = { toolCalls: 0, toolFailures: 0 };
  return {
    tally,
    observe(part: TextStreamPart<ToolSet>): void {
      if (!('toolName' in part) || !names.has(part.toolName)) return;
      if (part.type === 'tool-call') tally.toolCalls += 1;
      else if (part.type === 'tool-error' || (part.type === 'tool-result' && toolErrorOf(part.output))) tally.toolFailures += 1;
    },
  };
}
