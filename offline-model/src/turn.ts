import { languageDetector } from '@service/shared/detect-language';
import type { LanguageModelV4CallOptions, LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { composeAnswer, type PendingTool } from './answer';
import { outputFor, toolInputFor } from './fill-schema';
import { knowledgeFrom, type Knowledge } from './knowledge';
import { knowledgeSearchCall } from './knowledge-answer';
import { readPrompt, type PromptView } from './prompt-view';
import { bestTool, matchTools } from './tool-matching';
import { WIDGET_TOOL_NAMES, widgetCalls } from './widget-rules';
import { HANDOFF_TOOL, handoffCall } from './handoff';

// One turn of the offline model: either tool calls (first step of a request) or the final answer (once the
// tool results are in, or when no tool fits). Pure: the same call options always give the same turn.

export interface PlannedToolCall {
  toolCallId: string;
  toolName: string;
  /** JSON-encoded input, as the provider interface carries it. */
  input: string;
}

export interface OfflineTurn {
  /** The answer (prose, or JSON when a JSON response format is asked for); empty on a tool-call turn. */
  text: string;
  toolCalls: PlannedToolCall[];
}

function offeredFunctionTools(options: LanguageModelV4CallOptions): LanguageModelV4FunctionTool[] {
  const tools = (options.tools ?? []).filter((tool): tool is LanguageModelV4FunctionTool => tool.type === 'function');
  const choice = options.toolChoice ?? { type: 'auto' };
  if (choice.type === 'none') return [];
  return choice.type === 'tool' ? tools.filter((tool) => tool.name === choice.toolName) : tools;
}

interface ToolPlan {
  calls: Array<{ toolName: string; input: unknown }>;
  pending: PendingTool[];
}

function planTools(view: PromptView, knowledge: Knowledge, tools: LanguageModelV4FunctionTool[], forced: boolean): ToolPlan {
  const calledAlready = new Set(view.callsSinceRequest.map((call) => call.toolName));
  const available = tools.filter((tool) => !calledAlready.has(tool.name));
  // A visitor asking for a person gets one, and nothing else this turn.
  const handoff = handoffCall(view.request, available);
  if (handoff) return { calls: [handoff], pending: [] };
  const offeredWidgetTools = new Set(available.map((tool) => tool.name).filter((name) => WIDGET_TOOL_NAMES.has(name)));
  const calls: ToolPlan['calls'] = widgetCalls(view.request, knowledge.extracted, offeredWidgetTools);
  const pending: PendingTool[] = [];
  const generic = available.filter((tool) => !WIDGET_TOOL_NAMES.has(tool.name) && tool.name !== HANDOFF_TOOL);
  let chosen = matchTools(view.request, generic);
  if (forced && calls.length === 0 && chosen.length === 0) {
    chosen = [bestTool(view.request, available)].flatMap((tool) => (tool ? [{ tool, guessed: false }] : []));
  }
  for (const { tool, guessed } of chosen) {
    const { input, missing } = toolInputFor(tool.inputSchema, knowledge);
    // A forced call goes out even when incomplete; otherwise the model asks for what it lacks, unless the tool
    // was only a guess ("summarise the lead" may search contacts, but is no request to name one).
    if (missing.length === 0 || forced) calls.push({ toolName: tool.name, input });
    else if (!guessed) pending.push({ toolName: tool.name, missing });
  }
  // A question no other tool is for is looked up in the company's own content, when the agent has it.
  const search = calls.length === 0 && pending.length === 0 ? knowledgeSearchCall(view.request, available) : undefined;
  if (search) calls.push(search);
  return { calls, pending };
}

export async function planTurn(options: LanguageModelV4CallOptions): Promise<OfflineTurn> {
  const view = readPrompt(options.prompt);
  const knowledge = knowledgeFrom(view, await languageDetector());
  const tools = offeredFunctionTools(options);
  const forced = options.toolChoice?.type === 'required' || options.toolChoice?.type === 'tool';
  const plan = planTools(view, knowledge, tools, forced);
  // One tool step per request: once results are in, the model answers (and never calls a tool twice).
  if (plan.calls.length > 0 && view.resultsSinceRequest.length === 0) {
    return {
      text: '',
      toolCalls: plan.calls.map((call, index) => ({
        toolCallId: `offline-call-${view.callCount + index + 1}`,
        toolName: call.toolName,
        input: JSON.stringify(call.input),
      })),
    };
  }
  const facts = composeAnswer(
    view,
    knowledge,
    plan.pending,
    tools.some((tool) => tool.name === HANDOFF_TOOL),
  );
  const format = options.responseFormat;
  if (format?.type !== 'json') return { text: facts.prose, toolCalls: [] };
  const json = format.schema ? outputFor(format.schema, knowledge, facts) : { answer: facts.prose };
  return { text: JSON.stringify(json), toolCalls: [] };
}
