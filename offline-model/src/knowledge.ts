import type { LanguageDetector } from '@service/shared/detect-language';
import type { JSONValue } from '@ai-sdk/provider';
import { extractValues, type ExtractedValues } from './extract';
import { replyLanguage, type ReplyLanguage } from './language';
import type { PromptView } from './prompt-view';
import { relativeDateTime } from './widget-rules';
import { looseKey } from './words';

/** How the request went, as far as the offline model can tell. Matches the default envelope's `result` values. */
export type Outcome = 'ok' | 'partial' | 'needs_input' | 'failed';

/** Everything the offline model knows when it fills a schema. */
export interface Knowledge extends ReplyLanguage {
  request: string;
  /** Values lifted from the request, then from earlier user messages. */
  extracted: ExtractedValues;
  /** Where named values come from, most trusted first: tool results of this request, then context data. */
  sources: JSONValue[];
}

export function knowledgeFrom(view: PromptView, languages: LanguageDetector): Knowledge {
  const extracted = extractValues([view.request, ...view.earlierUserTexts].join('\n'));
  const relative = extracted.dateTimes.length === 0 ? relativeDateTime(view.request, view.contextTexts) : undefined;
  return {
    ...replyLanguage(view.contextTexts, view.request, languages),
    request: view.request.trim(),
    extracted: relative ? { ...extracted, dateTimes: [relative] } : extracted,
    sources: [...view.resultsSinceRequest.flatMap(({ output }) => resultValue(output)), view.data],
  };
}

/** The JSON value carried by a tool result (JSON outputs as they are, text outputs parsed when they are JSON). */
function resultValue(output: { type: string; value?: unknown }): JSONValue[] {
  if (output.type === 'json' || output.type === 'error-json') return [output.value as JSONValue];
  if ((output.type === 'text' || output.type === 'error-text') && typeof output.value === 'string') {
    try {
      return [JSON.parse(output.value) as JSONValue];
    } catch {
      return [];
    }
  }
  return [];
}

/** The first value stored under a key loosely equal to `name`, searching each source breadth-first. */
export function lookupByKey(sources: readonly JSONValue[], name: string): JSONValue | undefined {
  const wanted = looseKey(name);
  for (const source of sources) {
    const queue: JSONValue[] = [source];
    while (queue.length > 0) {
      const node = queue.shift();
      if (!node || typeof node !== 'object') continue;
      if (Array.isArray(node)) {
        queue.push(...node);
        continue;
      }
      for (const [key, value] of Object.entries(node)) {
        if (looseKey(key) === wanted && value !== null && value !== undefined) return value;
      }
      queue.push(...Object.values(node).filter((value): value is JSONValue => value !== undefined));
    }
  }
  return undefined;
}
