import type { JSONValue, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';

// What the offline model reads from a prompt: the request (the latest user message), the context around it,
// and what has happened since that request (tool calls and their results).

export interface ToolCallSeen {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface ToolResultSeen {
  toolCallId: string;
  toolName: string;
  output: LanguageModelV4ToolResultOutput;
}

export interface PromptView {
  /** Text of the latest user message: the request being answered. */
  request: string;
  /** Text of the earlier user messages, latest first: a fallback for values the request does not give. */
  earlierUserTexts: string[];
  /** Text of every system and user message, in order: where context data may be. */
  contextTexts: string[];
  /** Merged JSON objects found in the context texts (later ones win). */
  data: Record<string, JSONValue>;
  /** Tool calls made since the latest user message. */
  callsSinceRequest: ToolCallSeen[];
  /** Tool results received since the latest user message. */
  resultsSinceRequest: ToolResultSeen[];
  /** Tool calls in the whole conversation, to number new call ids uniquely. */
  callCount: number;
}

function textOf(content: ReadonlyArray<{ type: string; text?: string }>): string {
  return content.flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])).join('\n');
}

/** Every balanced `{…}` span in a text that parses as a JSON object. */
function jsonObjectsIn(text: string): Record<string, JSONValue>[] {
  const found: Record<string, JSONValue>[] = [];
  let start = text.indexOf('{');
  while (start !== -1) {
    const end = closingBrace(text, start);
    const parsed = end === -1 ? undefined : tryParseObject(text.slice(start, end + 1));
    if (parsed) found.push(parsed);
    start = text.indexOf('{', parsed ? end + 1 : start + 1);
  }
  return found;
}

function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}' && --depth === 0) return index;
  }
  return -1;
}

function tryParseObject(candidate: string): Record<string, JSONValue> | undefined {
  try {
    const value: unknown = JSON.parse(candidate);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, JSONValue>) : undefined;
  } catch {
    return undefined;
  }
}

export function readPrompt(prompt: LanguageModelV4Prompt): PromptView {
  const lastUser = prompt.findLastIndex((message) => message.role === 'user');
  const contextTexts: string[] = [];
  const callsSinceRequest: ToolCallSeen[] = [];
  const resultsSinceRequest: ToolResultSeen[] = [];
  let callCount = 0;
  prompt.forEach((message, index) => {
    if (message.role === 'system') contextTexts.push(message.content);
    else if (message.role === 'user') contextTexts.push(textOf(message.content));
    else {
      for (const part of message.content) {
        if (part.type === 'tool-call') {
          callCount += 1;
          if (index > lastUser) callsSinceRequest.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
        } else if (part.type === 'tool-result' && index > lastUser) {
          resultsSinceRequest.push({ toolCallId: part.toolCallId, toolName: part.toolName, output: part.output });
        }
      }
    }
  });
  const latest = prompt[lastUser];
  const earlierUserTexts = prompt
    .slice(0, Math.max(lastUser, 0))
    .flatMap((message) => (message.role === 'user' ? [textOf(message.content)] : []))
    .reverse();
  return {
    request: latest?.role === 'user' ? textOf(latest.content) : '',
    earlierUserTexts,
    contextTexts,
    data: Object.assign({}, ...contextTexts.flatMap(jsonObjectsIn)),
    callsSinceRequest,
    resultsSinceRequest,
    callCount,
  };
}
