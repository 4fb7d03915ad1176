import type { LanguageModelV4CallOptions, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { OfflineTurn } from './turn';

// Token counts of the offline model: one token per four characters (rounded up) of everything it reads and
// writes, the usual rule of thumb for English text. Deterministic, so usage metering and limits can be tested.

export const CHARACTERS_PER_TOKEN = 4;

export function countTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/** Everything the model reads: messages, tool calls and results, tool definitions and the response schema. */
function inputText(options: LanguageModelV4CallOptions): string {
  const messages = options.prompt.flatMap((message) => {
    if (message.role === 'system') return [message.content];
    return message.content.map((part) => {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          return part.text;
        case 'tool-call':
          return `${part.toolName}${JSON.stringify(part.input)}`;
        case 'tool-result':
          return `${part.toolName}${JSON.stringify(part.output)}`;
        default:
          return '';
      }
    });
  });
  const tools = (options.tools ?? []).map((tool) =>
    tool.type === 'function' ? `${tool.name}${tool.description ?? ''}${JSON.stringify(tool.inputSchema)}` : tool.name,
  );
  const format = options.responseFormat?.type === 'json' ? [JSON.stringify(options.responseFormat.schema ?? {})] : [];
  return [...messages, ...tools, ...format].join('');
}

export function usageOf(options: LanguageModelV4CallOptions, turn: OfflineTurn): LanguageModelV4Usage {
  const input = countTokens(inputText(options));
  const output = countTokens(turn.text + turn.toolCalls.map((call) => call.toolName + call.input).join(''));
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: countTokens(turn.text), reasoning: 0 },
  };
}
