import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { planTurn, type OfflineTurn } from './turn';
import { usageOf } from './usage';

// The built-in offline model: a real AI SDK language model (provider interface v4) with deterministic rules
// instead of a neural network. See ../README.md for what it can and cannot do.

export const OFFLINE_PROVIDER = 'offline';
export const OFFLINE_MODEL_ID = 'offline-demo';

/** Words per streamed text delta. */
const WORDS_PER_DELTA = 2;

function finishReason(turn: OfflineTurn): LanguageModelV4FinishReason {
  return turn.toolCalls.length > 0 ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };
}

function contentOf(turn: OfflineTurn): LanguageModelV4Content[] {
  return [...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []), ...turn.toolCalls.map((call) => ({ type: 'tool-call' as const, ...call }))];
}

/** The text cut into deltas of a few words each, whitespace kept, so that the deltas join back to the text. */
export function textDeltas(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [];
  const deltas: string[] = [];
  for (let index = 0; index < words.length; index += WORDS_PER_DELTA) deltas.push(words.slice(index, index + WORDS_PER_DELTA).join(''));
  return deltas;
}

function streamPartsOf(turn: OfflineTurn, options: LanguageModelV4CallOptions): LanguageModelV4StreamPart[] {
  const textParts: LanguageModelV4StreamPart[] = turn.text
    ? [
        { type: 'text-start', id: 'text-1' },
        ...textDeltas(turn.text).map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 'text-1', delta })),
        { type: 'text-end', id: 'text-1' },
      ]
    : [];
  const toolParts = turn.toolCalls.flatMap((call): LanguageModelV4StreamPart[] => [
    { type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName },
    { type: 'tool-input-delta', id: call.toolCallId, delta: call.input },
    { type: 'tool-input-end', id: call.toolCallId },
    { type: 'tool-call', ...call },
  ]);
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', modelId: OFFLINE_MODEL_ID },
    ...textParts,
    ...toolParts,
    { type: 'finish', usage: usageOf(options, turn), finishReason: finishReason(turn) },
  ];
}

export interface OfflineModelOptions {
  /** A pause before each streamed text delta but the first, to write at a hosted model's pace (the local demo); none by default. */
  deltaPauseMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class OfflineLanguageModel implements LanguageModelV4 {
  constructor(private readonly options: OfflineModelOptions = {}) {}

  readonly specificationVersion = 'v4';
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId = OFFLINE_MODEL_ID;
  readonly supportedUrls = {};

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    options.abortSignal?.throwIfAborted();
    const turn = await planTurn(options);
    return {
      content: contentOf(turn),
      finishReason: finishReason(turn),
      usage: usageOf(options, turn),
      response: { modelId: OFFLINE_MODEL_ID },
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    options.abortSignal?.throwIfAborted();
    const parts = streamPartsOf(await planTurn(options), options);
    // A pull stream: one part per read, so a consumer that stops reading (or aborts) stops the model.
    let next = 0;
    const pauseMs = this.options.deltaPauseMs ?? 0;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      async pull(controller) {
        const part = parts[next++];
        if (pauseMs > 0 && part?.type === 'text-delta' && parts[next - 2]?.type === 'text-delta') await pause(pauseMs);
        if (part) controller.enqueue(part);
        else controller.close();
      },
    });
    return { stream };
  }
}

export function createOfflineModel(options: OfflineModelOptions = {}): LanguageModelV4 {
  return new OfflineLanguageModel(options);
}
