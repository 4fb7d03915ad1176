import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { textDeltas } from '@service/offline-model';

// For tests elsewhere that need exact model turns (a particular tool call, a malformed JSON answer, a given
// token count): a mock model from the AI SDK that plays a script, one turn per model call, streamed or not.

export interface ScriptedToolCall {
  toolName: string;
  input: unknown;
  toolCallId?: string;
}

export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Token counts reported for the turn; 10 in and 5 out when not given. */
  usage?: { input: number; output: number };
}

function usageOf(turn: ScriptedTurn): LanguageModelV4Usage {
  const { input, output } = turn.usage ?? { input: 10, output: 5 };
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function toolCallsOf(turn: ScriptedTurn, turnIndex: number) {
  return (turn.toolCalls ?? []).map((call, index) => ({
    type: 'tool-call' as const,
    toolCallId: call.toolCallId ?? `scripted-call-${turnIndex + 1}-${index + 1}`,
    toolName: call.toolName,
    input: JSON.stringify(call.input),
  }));
}

function finishReasonOf(turn: ScriptedTurn): LanguageModelV4GenerateResult['finishReason'] {
  return turn.toolCalls?.length ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };
}

/**
 * A MockLanguageModelV4 that answers its n-th call (doGenerate or doStream alike) with the n-th turn.
 * A call past the end of the script fails with an error saying so. The mock records every call's options
 * in `doGenerateCalls` / `doStreamCalls`, and in `calls` both kinds in the order they came (a run streams its turns
 * and shapes its output without streaming), so tests can assert what the model was sent.
 */
export function scriptedModel(turns: readonly ScriptedTurn[]): MockLanguageModelV4 & { calls: LanguageModelV4CallOptions[] } {
  let played = 0;
  const calls: LanguageModelV4CallOptions[] = [];
  const nextTurn = (options: LanguageModelV4CallOptions): [ScriptedTurn, number] => {
    calls.push(options);
    const turn = turns[played];
    if (!turn) throw new Error(`scriptedModel: call ${played + 1} has no scripted turn (the script has ${turns.length})`);
    return [turn, played++];
  };
  const model = new MockLanguageModelV4({
    provider: 'scripted',
    modelId: 'scripted-model',
    doGenerate: async (options) => {
      const [turn, index] = nextTurn(options);
      return {
        content: [...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []), ...toolCallsOf(turn, index)],
        finishReason: finishReasonOf(turn),
        usage: usageOf(turn),
        warnings: [],
      };
    },
    doStream: async (options) => {
      const [turn, index] = nextTurn(options);
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        ...(turn.text
          ? [
              { type: 'text-start' as const, id: 'text-1' },
              ...textDeltas(turn.text).map((delta) => ({ type: 'text-delta' as const, id: 'text-1', delta })),
              { type: 'text-end' as const, id: 'text-1' },
            ]
          : []),
        ...toolCallsOf(turn, index),
        { type: 'finish', usage: usageOf(turn), finishReason: finishReasonOf(turn) },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            parts.forEach((part) => controller.enqueue(part));
            controller.close();
          },
        }),
      };
    },
  });
  return Object.assign(model, { calls });
}
