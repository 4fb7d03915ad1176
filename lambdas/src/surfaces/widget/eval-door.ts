import { tool, type LanguageModel } from 'ai';
import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import { handoffSettingsOf } from '../../domains/agents/agents';
import type { ScenarioDoor } from '../../domains/evals/doors';
import { HANDOFF_CALL, SANDBOXED_ANSWER } from '../../domains/evals/sandbox';
import type { Deps } from '../../infra/deps';
import type { ChatRequestBody } from './chat-request';
import { chatLanguage } from './chat-language';
import { HANDOFF_TOOL } from './people-turn';
import { streamWidgetReply, type WidgetReply } from './reply';
import { visitorToolbox, type ReplyActions, type VisitorReplyInput } from './visitor-tools';

/**
 * A door of an eval answered by one of the visitor-facing replies (the widget's here, the e-mail's in surfaces/mail):
 * a scenario's turn as the customer's message, the turns before it as the conversation, the visitor's role's tools
 * sandboxed. Nothing is stored: no conversation, no pending action, no handoff (the handoff tool is recorded like an
 * acting tool).
 */
export function sandboxedReplyDoor(model: LanguageModel, reply: (deps: Deps, input: VisitorReplyInput) => Promise<WidgetReply>): ScenarioDoor {
  return async (deps, { agent, scenario, turn, history, sandbox, playId }) => {
    const body: ChatRequestBody = {
      conversationId: playId,
      visitorId: playId,
      locale: 'en',
      messages: [...history, { role: 'user', content: scenario.turns[turn]!.user }],
      context: { system: [], data: scenario.identity?.data ?? {} },
      ...(scenario.page ? { page: { url: scenario.page, title: '' } } : {}),
      ...(scenario.locale ? { language: scenario.locale } : {}),
    };
    const conversation = { agent, conversationId: playId, language: await chatLanguage(agent, body) };
    const toolbox = await visitorToolbox(deps, conversation);
    const context = { deps, workspaceId: agent.workspaceId, agent, runId: playId };
    // The sandboxed tools' own execute only records an action; the conversation's limits are not stored.
    const actions: ReplyActions = { countCall: async () => true, act: (agentTool, input) => agentTool.execute(input, context) };
    try {
      const played = await reply(deps, {
        model,
        conversation,
        body,
        tools: sandbox.tools(toolbox.tools),
        actions,
        handoff: handoffSettingsOf(agent).enabled
          ? tool({
              ...HANDOFF_TOOL,
              execute: async (input) => {
                sandbox.record({ name: HANDOFF_CALL, capability: HANDOFF_CALL, effect: 'act' }, input);
                return SANDBOXED_ANSWER;
              },
            })
          : undefined,
      });
      return {
        answer: played.text,
        sources: played.sources,
        usage: { inputTokens: played.usage?.inputTokens ?? 0, outputTokens: played.usage?.outputTokens ?? 0 },
      };
    } finally {
      await toolbox.close();
    }
  };
}

/** The widget door of an eval: the widget's own reply (streamWidgetReply), on the scenario's page. */
export const widgetDoor = (model: LanguageModel): ScenarioDoor =>
  sandboxedReplyDoor(model, (deps, input) =>
    streamWidgetReply(deps, { ...input, pageUrl: input.body.page?.url, send: () => undefined, signal: AbortSignal.timeout(CHAT_LIMITS.replyMs) }),
  );
