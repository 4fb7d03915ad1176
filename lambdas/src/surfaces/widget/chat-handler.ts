import type { LanguageModel } from 'ai';
import { ROUTES } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { StoredAgent } from '../../domains/agents/agents';
import type { Toolbox } from '../../domains/skills/skill-toolbox';
import { header, type HttpEvent } from '../../infra/http/event';
import { readJsonBody, validated } from '../../infra/http/json-body';
import { SSE_KEEP_ALIVE } from '../../infra/http/sse';
import type { StreamingHandler } from '../../infra/http/streaming';
import { CHAT_LIMITS, type ChatStreamEvents } from '@service/shared/widget-protocol';
import { ChatDecisionSchema, ChatRequestSchema, type ChatDecisionBody, type ChatRequestBody } from './chat-request';
import { decide } from './decision';
import { uiMessageEncoding, widgetEncoding, type ReplyEncoding } from './reply-encoding';
import { fromUiMessageRequest, isUiMessageRequest } from './ui-message-request';
import { appendEntry, appendMessage, openConversation } from '../../domains/conversations/conversations';
import { handoffSettingsOf, widgetRateOf } from '../../domains/agents/agents';
import { handoffTool, peopleTake, type PeopleTurn } from './people-turn';
import { visitorPage } from './visitor-page';
import { logger } from '../../infra/logger';
import { identityHeaders, requestIdentity } from './widget-agent';
import { widgetStream } from './widget-route';
import { chatLanguage } from './chat-language';
import { hitRateLimit } from '../../domains/access/rate-limit';
import { confirmingActions, visitorToolbox, type VisitorConversation } from './visitor-tools';
import { streamWidgetReply } from './reply';
import { leftUnanswered } from '../../domains/knowledge/unanswered';
import { afterAnswer } from '../../domains/runs/runtime/after-answer';
import { noteAnswer, noteVisitorMessage } from '../../domains/insights/record';
import { offersKnowledge } from '../../domains/runs/runtime/run-sources';

export interface WidgetChatOptions {
  model: LanguageModel;
  /** Messages per minute from one visitor (by source address) to one agent. */
  visitorLimitPerMinute?: number;
  /** Messages per minute to one agent from all visitors together, unless the agent sets its own (widgetRateOf). */
  agentLimitPerMinute?: number;
  maxBodyBytes?: number;
  /** The longest one reply may stream (the model may never finish). */
  replyMs?: number;
}

const METHODS = ['POST', 'OPTIONS'];

type ParsedRequest = { kind: 'chat'; body: ChatRequestBody; encoding: ReplyEncoding } | { kind: 'decision'; body: ChatDecisionBody; encoding: ReplyEncoding };

/** A widget reply's follow-ups: its question noted if it went unanswered, its usage, and its insights facts. */
async function answerFollowUps(
  deps: Deps,
  agent: StoredAgent,
  conversation: VisitorConversation,
  answer: { reply: Awaited<ReturnType<typeof streamWidgetReply>>; messageId: string; stopped: boolean; knowledge: boolean; question: string },
): Promise<void> {
  const { reply } = answer;
  const turn = { ...reply.knowledge, answer: reply.text };
  const unanswered = !answer.stopped && answer.knowledge && leftUnanswered(turn);
  const tokens = { inputTokens: reply.usage?.inputTokens ?? 0, outputTokens: reply.usage?.outputTokens ?? 0 };
  await afterAnswer(deps, {
    workspaceId: agent.workspaceId,
    agentId: agent.id,
    usage: reply.usage && tokens,
    unanswered: unanswered ? { turn, question: answer.question, language: conversation.language } : undefined,
  });
  await noteAnswer(deps, { workspaceId: agent.workspaceId, agentId: agent.id, conversationId: conversation.conversationId }, answer.messageId, {
    at: deps.now().toISOString(),
    ...tokens,
    ...reply.toolTally,
    unanswered,
  });
}

/**
 * The request: a visitor turn in the widget's shape or as `useChat` sends it (the reply answers in the same
 * protocol), or the visitor's decision on a pending action (it names an `actionId`).
 */
function parseBody(event: HttpEvent, maxBytes: number): ParsedRequest {
  const json = readJsonBody(event, { maxBytes });
  if (typeof json === 'object' && json !== null && 'actionId' in json)
    return { kind: 'decision', body: validated(ChatDecisionSchema, json), encoding: widgetEncoding() };
  const fromUseChat = isUiMessageRequest(json) ? fromUiMessageRequest(json) : undefined;
  return { kind: 'chat', body: validated(ChatRequestSchema, fromUseChat ?? json), encoding: fromUseChat ? uiMessageEncoding() : widgetEncoding() };
}

/**
 * POST /v1/agents/{agentId}/chat: one visitor turn, the reply streamed as server-sent events:
 * `delta` {text}, `navigate` {href}, `uiAction` {action, target}, `confirm` {actionId, summary}, then `done`
 * {messageId} or `error` {code, message}; or, for a request as the AI SDK's `useChat` sends it, as its UI message
 * stream. The agent's skill tools are offered as the visitor's role grants them; a decision on a `confirm` is
 * answered with the action's outcome.
 */
export function createWidgetChatHandler(deps: Deps, options: WidgetChatOptions): StreamingHandler {
  const visitorLimit = options.visitorLimitPerMinute ?? 20;
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;

  return widgetStream(deps, { route: ROUTES.widgetChat, methods: METHODS, origin: 'required' }, async ({ agent, cors }, event, sink) => {
    // An origin the agent does not allow got no model time: the preamble refused it.
    const origin = header(event, 'origin');
    const request = parseBody(event, maxBodyBytes);
    /** A decision's answer, made before the stream starts (a decision on no pending action is a 404). */
    let decided = '';
    /** People took the visitor's message: the agent says nothing but a fixed answer (their state is the answer). */
    let withPeople: PeopleTurn | undefined;
    let visitorMessageId = '';
    const { body } = request;
    await hitRateLimit(deps, `widget-visitor#${agent.id}#${event.requestContext.http.sourceIp}`, visitorLimit);
    await hitRateLimit(deps, `widget-agent#${agent.id}`, widgetRateOf(agent, options.agentLimitPerMinute));
    const identity = await requestIdentity(deps, agent, event);
    const { userId } = identity;
    /** The page the widget is on, as the conversation keeps it (visitor-page.ts). */
    const page = request.kind === 'chat' ? visitorPage(request.body.page?.url) : undefined;
    const { handler } = await openConversation(deps, {
      conversationId: body.conversationId,
      agentId: agent.id,
      workspaceId: agent.workspaceId,
      visitorId: body.visitorId,
      locale: body.locale,
      ...(userId ? { userId } : {}),
      ...(page ? { page } : {}),
    });
    const conversation: VisitorConversation = {
      agent,
      conversationId: body.conversationId,
      language: request.kind === 'chat' ? await chatLanguage(agent, request.body) : agent.locale,
      visitor: identity,
    };
    if (request.kind === 'decision') decided = await decide(deps, conversation, request.body);
    else {
      const message = {
        ...(await appendEntry(deps, body.conversationId, { role: 'user', content: request.body.messages.at(-1)?.content ?? '' })),
        role: 'user' as const,
      };
      visitorMessageId = message.messageId;
      await noteVisitorMessage(deps, { workspaceId: agent.workspaceId, agentId: agent.id, conversationId: body.conversationId }, new Date(message.createdAt));
      withPeople = await peopleTake(deps, agent, {
        conversationId: body.conversationId,
        handler,
        message,
        askedForPerson: request.body.handoff === true,
        language: conversation.language,
        page,
        email: request.body.email,
      });
    }

    return async () => {
      const { encoding } = request;
      sink.start(200, { ...encoding.headers, ...cors, ...identityHeaders(identity) });
      const send = <N extends keyof ChatStreamEvents>(name: N, data: ChatStreamEvents[N]) => sink.write(encoding.encode(name, data));
      if (request.kind === 'decision') {
        send('delta', { text: decided });
        send('done', { conversationId: conversation.conversationId, messageId: await appendMessage(deps, conversation.conversationId, 'assistant', decided) });
        return sink.end();
      }
      if (withPeople) {
        if (withPeople.reply) send('delta', { text: withPeople.reply.content });
        send('handoff', withPeople.state);
        send('done', { conversationId: conversation.conversationId, messageId: withPeople.reply?.messageId ?? visitorMessageId });
        return sink.end();
      }
      const body = request.body;
      // A comment line keeps proxies and the widget's idle timer from giving up while the model thinks.
      const keepAlive = setInterval(() => sink.write(SSE_KEEP_ALIVE), CHAT_LIMITS.keepAliveMs);
      const deadline = AbortSignal.timeout(options.replyMs ?? CHAT_LIMITS.replyMs);
      let toolbox: Toolbox | undefined;
      try {
        toolbox = await visitorToolbox(deps, conversation);
        const reply = await streamWidgetReply(deps, {
          model: options.model,
          conversation,
          body,
          pageUrl: body.page?.url ?? origin,
          tools: toolbox.tools,
          actions: confirmingActions(deps, conversation, (confirm) => send('confirm', confirm)),
          handoff: handoffSettingsOf(agent).enabled ? handoffTool(deps, { ...conversation, page }, (state) => send('handoff', state)) : undefined,
          send,
          // The visitor's Stop (or a closed page) goes as the request's end: the reply stops there, no tool starts after it.
          signal: AbortSignal.any([sink.signal, deadline]),
        });
        // An aborted stream ends quietly (an `abort` part); past the deadline the reply is a failure.
        if (deadline.aborted) throw deadline.reason;
        // A reply the visitor stopped keeps what was written, marked so; the conversation goes on from it.
        const stopped = sink.signal.aborted;
        const messageId = await appendMessage(deps, body.conversationId, 'assistant', reply.text, { stopped });
        if (!stopped) send('done', { conversationId: body.conversationId, messageId });
        // The visitor has the answer: what it leaves behind is noted after `done`, and a failure there is logged, never
        // sent (the stream ends with `done` or `error`, not both).
        await answerFollowUps(deps, agent, conversation, {
          reply,
          messageId,
          stopped,
          knowledge: offersKnowledge(toolbox.tools),
          question: body.messages.at(-1)?.content ?? '',
        }).catch((error: unknown) => logger.error('widget reply follow-ups failed', { agentId: agent.id, workspaceId: agent.workspaceId, error }));
      } catch (error) {
        if (deadline.aborted) {
          send('error', { code: 'REPLY_TIMEOUT', message: 'The reply took too long; please try again' });
        } else if (!sink.signal.aborted) {
          logger.error('widget chat failed', { agentId: agent.id, workspaceId: agent.workspaceId, error });
          send('error', { code: 'INTERNAL_ERROR', message: 'The assistant could not answer; please try again' });
        }
      } finally {
        clearInterval(keepAlive);
        await toolbox?.close();
        sink.end();
      }
    };
  });
}
