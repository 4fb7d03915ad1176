import type { JSONValue } from '@ai-sdk/provider';
import type { AnswerFacts } from './fill-schema';
import type { Knowledge, Outcome } from './knowledge';
import { knowledgeAnswer } from './knowledge-answer';
import { phrasesFor, type Phrases } from './phrases';
import type { PromptView, ToolCallSeen, ToolResultSeen } from './prompt-view';
import { markerReply, topicOf } from './widget-rules';
import { HANDOFF_TOOL, OFFER_PERSON } from './handoff';

// The prose of the offline model's final answer: a summary of the tool results of this request, or, when no
// tool ran, a topic reply with markers or an honest description of itself.

/** A tool the request asked for that could not be called because required values are unknown. */
export interface PendingTool {
  toolName: string;
  missing: string[];
}

const VALUE_LIMIT = 160;

function clip(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= VALUE_LIMIT ? clean : `${clean.slice(0, VALUE_LIMIT - 1)}…`;
}

/** A short, readable rendering of a tool's result: scalar fields of an object, else compact JSON. */
function describeValue(value: JSONValue | undefined, phrases: Phrases): string {
  if (value === undefined || value === null || value === '') return phrases.noResult;
  if (typeof value === 'string') return clip(value);
  if (typeof value !== 'object' || Array.isArray(value)) return clip(JSON.stringify(value));
  const scalars = Object.entries(value).filter(([, field]) => field !== null && typeof field !== 'object');
  return scalars.length > 0
    ? clip(
        scalars
          .slice(0, 4)
          .map(([key, field]) => `${key}: ${String(field)}`)
          .join(', '),
      )
    : clip(JSON.stringify(value));
}

type ResultKind = 'ok' | 'error' | 'not-run';

function describeResult(result: ToolResultSeen, call: ToolCallSeen | undefined, phrases: Phrases): { kind: ResultKind; sentence: string } {
  const { output, toolName } = result;
  const input = (call?.input ?? {}) as Record<string, unknown>;
  switch (output.type) {
    case 'execution-denied':
      return { kind: 'not-run', sentence: phrases.toolNotRun(toolName, output.reason) };
    case 'error-text':
      // The AI SDK renders a thrown error as "Error: message"; the message is what matters.
      return { kind: 'error', sentence: phrases.toolFailed(toolName, clip(output.value.replace(/^\w*Error:\s*/, ''))) };
    case 'error-json':
      return { kind: 'error', sentence: phrases.toolFailed(toolName, describeValue(output.value, phrases)) };
    default:
      if (toolName === 'navigate' && typeof input.href === 'string') return { kind: 'ok', sentence: phrases.navigated(input.href) };
      if (toolName === 'ui_action' && typeof input.target === 'string') return { kind: 'ok', sentence: phrases.pointedAt(input.target) };
      if (toolName === HANDOFF_TOOL) return { kind: 'ok', sentence: phrases.handedOff };
      return { kind: 'ok', sentence: phrases.usedTool(toolName, describeValue(contentValue(output), phrases)) };
  }
}

function contentValue(output: ToolResultSeen['output']): JSONValue | undefined {
  if (output.type === 'text' || output.type === 'json') return output.value;
  if (output.type === 'content') return output.value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
  return undefined;
}

function outcomeOf(kinds: ResultKind[], pending: boolean): Outcome {
  const ok = kinds.filter((kind) => kind === 'ok').length;
  const errors = kinds.filter((kind) => kind === 'error').length;
  if (errors > 0 && ok === 0) return 'failed';
  if (pending || kinds.includes('not-run')) return 'needs_input';
  return errors > 0 ? 'partial' : 'ok';
}

/** `offersPerson`: the `handoff` tool is offered, so an answer that cannot help offers a person (the widget's marker). */
export function composeAnswer(view: PromptView, knowledge: Knowledge, pending: PendingTool[], offersPerson = false): AnswerFacts {
  const phrases = phrasesFor(knowledge);
  const followUp = pending.length > 0 ? pending.map(({ toolName, missing }) => phrases.needsInput(toolName, missing.join(', '))).join(' ') : null;
  const topic = topicOf(view.request);
  const fromContent = knowledgeAnswer(view, knowledge.language);
  if (fromContent) {
    const offer = offersPerson && fromContent.outcome !== 'ok' ? ` ${OFFER_PERSON[knowledge.language]}` : '';
    return { prose: `${phrases.intro} ${fromContent.body}${offer}`, followUp: fromContent.followUp, outcome: fromContent.outcome };
  }
  if (view.resultsSinceRequest.length > 0) {
    const described = view.resultsSinceRequest.map((result) =>
      describeResult(
        result,
        view.callsSinceRequest.find((call) => call.toolCallId === result.toolCallId),
        phrases,
      ),
    );
    const usedWidget = view.resultsSinceRequest.some(({ toolName }) => toolName === 'navigate' || toolName === 'ui_action');
    const markers = usedWidget && topic ? [topic.markers[knowledge.language].join(' ')] : [];
    return {
      prose: [phrases.intro, ...described.map(({ sentence }) => sentence), ...(followUp ? [followUp] : []), ...markers].join(' '),
      followUp,
      outcome: outcomeOf(
        described.map(({ kind }) => kind),
        followUp !== null,
      ),
    };
  }
  if (followUp) return { prose: `${phrases.intro} ${followUp}`, followUp, outcome: 'needs_input' };
  if (topic) return { prose: `${phrases.intro} ${markerReply(topic, knowledge.language)}`, followUp: null, outcome: 'ok' };
  const dataKeys = Object.keys(view.data);
  const dataSentence = dataKeys.length > 0 ? [phrases.receivedData(dataKeys.join(', '))] : [];
  return { prose: [phrases.intro, phrases.generic(view.request), ...dataSentence].join(' '), followUp: null, outcome: 'ok' };
}
