import type { Deps } from '../../infra/deps';
import type { ChatDecisionBody } from './chat-request';
import { takePendingAction } from '../../domains/conversations/pending-actions';
import { visitorToolbox, type VisitorConversation } from './visitor-tools';

const SAY = {
  en: {
    declined: 'OK, I did not do it: {summary}.',
    done: 'Done: {summary}.',
    gone: 'That action is no longer available.',
    failed: 'That did not work: {error}',
  },
  tr: { declined: 'Tamam, yapmadım: {summary}.', done: 'Tamamlandı: {summary}.', gone: 'Bu işlem artık kullanılamıyor.', failed: 'Bu işe yaramadı: {error}' },
} as const;

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');

/**
 * The visitor's Confirm or Decline of a stored action: taken once from the store (never the client's copy of the
 * arguments); on Confirm it runs with the stored input if the visitor's role still holds the tool. Returns the reply.
 */
export async function decide(deps: Deps, conversation: VisitorConversation, decision: ChatDecisionBody): Promise<string> {
  const say = SAY[decision.locale];
  const action = await takePendingAction(deps, conversation.conversationId, decision.actionId);
  if (!decision.confirm) return fill(say.declined, { summary: action.summary });
  // The action runs in the language of the turn that asked for it (an action stored before languages were kept: the agent's).
  const toolbox = await visitorToolbox(deps, { ...conversation, language: action.language ?? conversation.agent.locale });
  try {
    const agentTool = toolbox.tools.find((candidate) => candidate.name === action.toolName);
    if (!agentTool) return say.gone;
    const result = await agentTool.execute(action.input, {
      deps,
      workspaceId: conversation.agent.workspaceId,
      agent: conversation.agent,
      runId: conversation.conversationId,
    });
    const message = (result as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message ? message : fill(say.done, { summary: action.summary });
  } catch (error) {
    return fill(say.failed, { error: error instanceof Error ? error.message : String(error) });
  } finally {
    await toolbox.close();
  }
}
