import { stepCountIs, streamText, tool, type LanguageModel, type LanguageModelUsage, type Tool } from 'ai';
import { z } from 'zod';
import type { RunSource } from '@service/shared';
import { CHAT_LIMITS, type ChatStreamEvents } from '@service/shared/widget-protocol';
import type { Deps } from '../../infra/deps';
import type { AgentTool } from '../../domains/skills/agent-tool';
import { handoffSettingsOf } from '../../domains/agents/agents';
import { stoppableTools } from '../../domains/runs/runtime/stoppable-tools';
import { retrievalGuard } from '../../domains/runs/runtime/retrieval-guard';
import { offersKnowledge } from '../../domains/runs/runtime/run-sources';
import { traceRemovedLinks, traceTelemetry } from '../../domains/telemetry/tracing';
import { answerFilter, answerSources, citationBook, passageUrls, sourcesList, type RemovedLink } from '../../domains/runs/runtime/cited-answer';
import { agentLinkPolicy, webOrigin, type LinkPolicy } from '../../domains/runs/runtime/link-policy';
import { logger } from '../../infra/logger';
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
  /** The address of the page the visitor is on (cited pages of that site are Page markers, and its pages may be linked). */
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
  /** The text sent (citations written, links checked), cut at the reply's length limit. */
  text: string;
  /** The passages it cited: none when it cited none or says it does not know. */
  sources: RunSource[];
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
  const subject = { workspaceId: agent.workspaceId, agent, conversationId: body.conversationId };
  const telemetry = await traceTelemetry(deps, subject);
  // The passages the model reads numbered, its text streamed with their markers and its links checked.
  const citations = citationBook();
  const siteOrigin = input.pageUrl ? webOrigin(input.pageUrl) : undefined;
  const links = await agentLinkPolicy(deps, agent, passageUrls(citations), siteOrigin);
  const shown = answerFilter(citations, links, input.email ? { kind: 'plain' } : { kind: 'widget', siteOrigin });
  const navigationsRefused: RemovedLink[] = [];
  const result = streamText({
    model: input.model,
    system:
      input.email?.system ??
      widgetSystemPrompt(agent, body, conversation.language, deps.now(), offersKnowledge(input.tools), handoffSettingsOf(agent).enabled, conversation.visitor),
    messages: body.messages,
    abortSignal: replySignal,
    telemetry,
    stopWhen: stepCountIs(3),
    tools: stoppableTools(
      {
        ...replyTools(deps, conversation, input.tools, input.actions, {
          citations,
          // The visitor's own words and the site's context are what an action may be aimed at.
          guard: retrievalGuard([...body.messages.filter((message) => message.role === 'user').map((message) => message.content), body.context.data]),
          knowledge,
        }),
        ...(input.email ? {} : pageTools(budget, send, links, navigationsRefused)),
        ...(input.handoff ? { handoff: input.handoff } : {}),
      },
      replySignal,
    ),
  });
  let text = '';
  const show = (written: string) => {
    const piece = budget.text(written);
    if (piece) send('delta', { text: piece });
    text += piece;
  };
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      show(shown.push(part.text));
      if (budget.full) {
        stop.abort();
        break;
      }
    } else if (part.type === 'error') {
      throw part.error;
    } else {
      // A text part that ends (before a tool call, say) holds no link or citation still being written: show the rest now.
      if (part.type === 'text-end' && !budget.full) show(shown.end());
      tools.observe(part);
    }
  }
  if (!budget.full) show(shown.end());
  // Each link taken out before the visitor saw it (a navigation among them) is logged and traced.
  const removedLinks = [...shown.removed, ...navigationsRefused];
  if (removedLinks.length > 0) {
    logger.info('links removed from a widget reply', { agentId: agent.id, conversationId: body.conversationId, removed: removedLinks.length });
    await traceRemovedLinks(deps, subject, removedLinks);
  }
  // A reply cut at its length limit was aborted: its usage may never arrive.
  const usage = await Promise.resolve(result.totalUsage).catch(() => undefined);
  const sources = answerSources(text, shown.cited());
  // By e-mail the numbers stay in the text, with the list of what they cite under it (a mail has no markers).
  return { text: input.email ? `${text}${sourcesList(citations, sources)}` : text, sources, knowledge, usage, toolTally: tools.tally };
}

/** The widget's page tools: open a page of this site or a retrieved one for the visitor, point at an element of it (none by e-mail). */
function pageTools(budget: ReturnType<typeof createReplyBudget>, send: SendEvent, links: LinkPolicy, refused: RemovedLink[]) {
  return {
    navigate: tool({
      description: 'Open a page for the visitor: a path of this site such as /pricing, or an external https URL. Once per reply.',
      inputSchema: z.object({ href: z.string().min(1).max(2000) }),
      execute: async ({ href }) => {
        if (!links.allows(href)) {
          refused.push({ url: href });
          return { requested: false, reason: 'only pages of this site and retrieved passages may be opened' };
        }
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
