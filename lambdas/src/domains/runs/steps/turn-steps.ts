import type { LanguageModelUsage, StepResult, ToolExecutionEndEvent, ToolSet } from 'ai';
import type { AgentTool } from '../../skills/agent-tool';
import { redactSecrets } from './redact';
import type { NewStep, StepLog } from './step-log';
import { storedTurnText, textPieceWriter } from './text-deltas';

/** A tool answer longer than this is stored as a preview. */
const RESULT_MAX_CHARS = 4_000;

function preview(value: unknown): unknown {
  const redacted = redactSecrets(value);
  const json = JSON.stringify(redacted) ?? 'null';
  return json.length <= RESULT_MAX_CHARS ? redacted : { truncated: true, preview: json.slice(0, RESULT_MAX_CHARS) };
}

/** The error a tool answered with (`{ error: '…' }`, how skills report a failure), or null. */
export const toolErrorOf = (output: unknown) => {
  const error = (output as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? error : null;
};

const usageOf = (usage: LanguageModelUsage) => ({ input_tokens: usage.inputTokens ?? 0, output_tokens: usage.outputTokens ?? 0 });

/** What a door shows of a turn's text as it streams (the run's: cited-answer.ts's filter): links checked, citations written. */
export interface TurnTextFilter {
  push(delta: string): string;
  end(): string;
  readonly removed: readonly { url: string }[];
}

/**
 * The AI SDK callbacks that record a run's turns in its step log: the text as the model writes it (text pieces),
 * then each model turn (its text, whole, and its tokens) followed by the tool calls it made (redacted arguments,
 * result or error, duration). With `filterOf`, each turn's text goes through a filter of its own before it is stored or
 * streamed, and each link it removed is a `link_removed` step after the turn's text.
 */
export function turnRecorder(log: StepLog, tools: AgentTool[], filterOf?: () => TurnTextFilter) {
  const capabilityOf = new Map(tools.map((tool) => [tool.name, tool.capability]));
  const pieces = textPieceWriter(log);
  let calls: NewStep[] = [];
  let turn: { filter: TurnTextFilter; shown: string } | undefined;
  return {
    onTextDelta(text: string) {
      if (!filterOf) return pieces.onTextDelta(text);
      turn ??= { filter: filterOf(), shown: '' };
      const piece = turn.filter.push(text);
      turn.shown += piece;
      if (piece) pieces.onTextDelta(piece);
    },
    onToolExecutionEnd(event: ToolExecutionEndEvent) {
      const capability = capabilityOf.get(event.toolCall.toolName) ?? event.toolCall.toolName;
      const output = event.toolOutput.type === 'tool-result' ? event.toolOutput.output : undefined;
      const thrown = event.toolOutput.type === 'tool-error' ? String(event.toolOutput.error) : null;
      calls.push({
        type: 'tool_call',
        at: new Date().toISOString(),
        skill: capability.split('.')[0]!,
        capability,
        arguments: redactSecrets(event.toolCall.input ?? {}) as Record<string, unknown>,
        ...(output !== undefined ? { result: preview(output) } : {}),
        error: thrown ?? toolErrorOf(output),
        duration_ms: Math.max(0, Math.round(event.toolExecutionMs)),
      });
    },
    /** Records the turn; what it wrote, as shown (filtered). */
    onStepEnd(step: StepResult<ToolSet>): string {
      pieces.endTurn();
      // A turn whose text came whole (no deltas) is filtered whole.
      if (filterOf && !turn && step.text) {
        const filter = filterOf();
        turn = { filter, shown: filter.push(step.text) };
      }
      const text = turn ? `${turn.shown}${turn.filter.end()}` : step.text;
      const at = new Date().toISOString();
      const removed: NewStep[] = (turn?.filter.removed ?? []).map((link) => ({ type: 'link_removed', at, url: redactSecrets(link.url) as string }));
      turn = undefined;
      log.record({ type: 'text', at, text: storedTurnText(text), usage: usageOf(step.usage), finish_reason: step.finishReason }, ...removed, ...calls);
      calls = [];
      // A turn that called no tool ends the acting: its steps are stored while the answer is being shaped.
      if (step.toolCalls.length === 0) log.writeNow();
      return text;
    },
  };
}
