import { stepCountIs, streamText, tool, type LanguageModel, type LanguageModelUsage, type Tool } from 'ai';
import { z } from 'zod';
import { CHAT_LIMITS, type ChatStreamEvents } from '@service/shared/widget-protocol';
import type { Deps } from '../../infra/deps';
import type { AgentTool } from '../../domains/runs/runtime/agent-tool';
import { handoffSettingsOf } from '../../domains/agents/agents';
import { stoppableTools } from '../../domains/runs/runtime/stoppable-tools';
import { retrievalGuard } from '../../domains/runs/runtime/retrieval-guard';
import { offersKnowledge } from '../../domains/runs/runtime/run-sources';
import { traceTelemetry } from '../../domains/telemetry/tracing';
import type { ChatRequestBody } from './chat-request';
import { widgetSystemPrompt } from './prompt';
import { createReplyBudget } from './reply-budget';
import { toolTally } from './tool-tally';
import { replyTools, type ReplyActions, type VisitorConversation } from './visitor-tools';

export type SendEvent = <N extends keyof ChatStreamEvents>(name: N, data: ChatStreamEvents[N]) => void;

export interface WidgetReplyInput {
  model: LanguageModel;
  conversation: VisitorConversation;
  body: ChatRequestBody;
  /** The address of the page the visitor is on (cited pages of that site are Page markers). */
  pageUrl: string | undefined;
  /** The visitor's skill tools (their role's grants). */
  tools: readonly AgentTool[];
  actions: ReplyActions;
  /** The `handoff` tool when the agent may pass the conversation to people. */
  handoff: Tool | undefined;
  send: SendEvent;
  /** Ends the reply (the visitor's Stop, a closed page, the deadline). */
  signal: AbortSignal;
  /**
   * The e-mail door (surfaces/mail): its own system prompt, no page tools (navigate, ui_action), knowledge cited as
   * plain links from the same passages.
   */
  email?: { system: string };
}

export interface WidgetReply {
  /** The text sent, cut at the reply's length limit. */
  text: string;
  /** What its knowledge searches found (whether the question was left unanswered). */
  knowledge: { searched: boolean; passages: number };
  /** Undefined for a reply cut at its length limit (its usage may never arrive). */
  usage: LanguageModelUsage | undefined;
  /** Its calls of the visitor's skill tools, and how many failed (the insights' tool measures). */
  toolTally: { toolCalls: number; toolFailures: number };
}

/**
 * One widget reply: the agent's persona and the page's context as the system prompt, the visitor's skill tools, and
 * navigate, ui_action and handoff, streamed through `send` within the reply's budget. The chat handler serves it to
 * visitors; an eval plays a scenario's turn through it with sandboxed tools (domains/evals/).
 */
export async function streamWidgetReply(deps: Deps, input: WidgetReplyInput): Promise<WidgetReply> {
  const { conversation, body, send } = input;
  const { agent } = conversation;
  const budget = createReplyBudget();
  const knowledge = { searched: false, passages: 0 };
  const tools = toolTally(input.tools.map((skillTool) => skillTool.name));
  const stop = new AbortController();
  const replySignal = AbortSignal.any([input.signal, stop.signal]);
  const telemetry = await traceTelemetry(deps, { workspaceId: agent.workspaceId, agent, conversationId: body.conversationId });
  const result = streamText({
    model: input.model,
    system: input.email?.system ?? widgetSystemPrompt(agent, body, conversation.language, deps.now(), offersKnowledge(input.tools), handoffSettingsOf(agent).enabled),
    messages: body.messages,
    abortSignal: replySignal,
    telemetry,
    stopWhen: stepCountIs(3),
    tools: stoppableTools({
      ...replyTools(deps, conversation, input.tools, input.actions, {
        pageUrl: input.pageUrl,
        // The visitor's own words and the site's context are what an action may be aimed at.
        guard: retrievalGuard([...body.messages.filter((message) => message.role === 'user').map((message) => message.content), body.context.data]),
        knowledge,
        citing: input.email ? 'link' : 'marker',
      }),
      ...(input.email ? {} : pageTools(budget, send)),
      ...(input.handoff ? { handoff: input.handoff } : {}),
    }, replySignal),
  });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      const piece = budget.text(part.text);
      if (piece) send('delta', { text: piece });
      text += piece;
      if (budget.full) {
        stop.abort();
        break;
      }
    } else if (part.type === 'error') {
      throw part.error;
    } else {
      tools.observe(part);
    }
  }
  // A reply cut at its length limit was aborted: its usage may never arrive.
  const usage = await Promise.resolve(result.totalUsage).catch(() => undefined);
  return { text, knowledge, usage, toolTally: tools.tally };
}

/** The widget's page tools: open a page for the visitor, point at an element of it (none by e-mail). */
function pageTools(budget: ReturnType<typeof createReplyBudget>, send: SendEvent) {
  return {
      navigate: tool({
        description: 'Open a page for the visitor: a path of this site such as /pricing, or an external https URL. Once per reply.',
        inputSchema: z.object({ href: z.string().min(1).max(2000) }),
        execute: async ({ href }) => {
          if (!budget.navigation()) return { requested: false, reason: 'one navigation per reply' };
          send('navigate', { href });
          return { requested: true };
        },
      }),
      ui_action: tool({
        description: 'Point at, highlight or scroll to an element of the page the visitor is on (CSS selector or data-chat-target value)',
        inputSchema: z.object({ action: z.enum(['pointer', 'highlight', 'scroll']), target: z.string().min(1).max(300) }),
        execute: async (action) => {
          if (!budget.uiAction()) return { requested: false, reason: `at most ${CHAT_LIMITS.uiActionsPerReply} per reply` };
          send('uiAction', action);
          return { requested: true };
        },
      }),
  };
}
