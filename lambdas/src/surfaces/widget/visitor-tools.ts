import { jsonSchema, tool, type ToolSet } from 'ai';
import { CHAT_LIMITS, type ChatStreamEvents } from '@service/shared/widget-protocol';
import type { Deps } from '../../infra/deps';
import type { StoredAgent } from '../../domains/agents/agents';
import type { AgentTool } from '../../domains/runs/runtime/agent-tool';
import { skillToolbox, type Toolbox } from '../../domains/skills/skill-toolbox';
import type { BuiltinRole } from '../../domains/skills/roles';
import { countConversationToolCall, storePendingAction } from '../../domains/conversations/pending-action-repository';

/** A widget visitor acts as the `public` role: only the capabilities a company granted to it are offered. */
export const VISITOR_ROLE: BuiltinRole = 'public';

export interface VisitorConversation {
  agent: StoredAgent;
  conversationId: string;
  /** The conversation language of this turn (chat-language.ts), sent to skills as X-Service-Language. */
  language: string;
}

/** The skill tools the visitor's role may use in this conversation (the run id of their turn tokens is the conversation). */
export const visitorToolbox = (deps: Deps, conversation: VisitorConversation): Promise<Toolbox> =>
  skillToolbox(deps, { agent: conversation.agent, runId: conversation.conversationId, roles: [VISITOR_ROLE], language: conversation.language });

const SUMMARY_CHARS = 300;

/** What the visitor is asked to confirm: what the tool does and the values it would do it with. */
export function actionSummary(agentTool: AgentTool, input: Record<string, unknown>): string {
  const what = agentTool.description.split(/[.\n]/)[0]?.trim() || agentTool.capability;
  const values = Object.entries(input).map(([key, value]) => `${key.replace(/_/g, ' ')}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  const summary = values.length > 0 ? `${what} (${values.join('; ')})` : what;
  return summary.length > SUMMARY_CHARS ? `${summary.slice(0, SUMMARY_CHARS - 1)}…` : summary;
}

/** The model-facing answer of a tool that did not run, so it can tell the visitor. */
const notRun = (reason: string) => ({ performed: false, reason });

/**
 * The visitor's skill tools for one reply. Every call counts against the reply's and the conversation's limits;
 * a read runs at once, an action is stored and shown to the visitor as a `confirm` event, and runs only on their
 * Confirm (see decision.ts).
 */
export function replyTools(
  deps: Deps,
  conversation: VisitorConversation,
  tools: readonly AgentTool[],
  onConfirm: (event: ChatStreamEvents['confirm']) => void,
): ToolSet {
  let calls = 0;
  const context = { deps, workspaceId: conversation.agent.workspaceId, agent: conversation.agent, runId: conversation.conversationId };
  return Object.fromEntries(
    tools.map((agentTool) => [
      agentTool.name,
      tool({
        description: agentTool.description,
        inputSchema: jsonSchema<Record<string, unknown>>(agentTool.inputSchema),
        execute: async (input: Record<string, unknown>) => {
          if (++calls > CHAT_LIMITS.toolCallsPerReply) return notRun(`at most ${CHAT_LIMITS.toolCallsPerReply} tool calls per reply`);
          if (!(await countConversationToolCall(deps, conversation.conversationId))) return notRun('this conversation has used all its tool calls');
          if (agentTool.effect === 'act') {
            const summary = actionSummary(agentTool, input);
            const actionId = await storePendingAction(deps, conversation.conversationId, { toolName: agentTool.name, input, summary, language: conversation.language });
            onConfirm({ actionId, summary });
            return { performed: false, status: 'awaiting_visitor_confirmation', detail: 'The visitor sees Confirm and Decline buttons; it runs only if they confirm.' };
          }
          try {
            return await agentTool.execute(input, context);
          } catch (error) {
            return { error: error instanceof Error ? error.message : String(error) };
          }
        },
      }),
    ]),
  );
}
