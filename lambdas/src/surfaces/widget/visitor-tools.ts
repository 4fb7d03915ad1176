import { jsonSchema, tool, type LanguageModel, type Tool, type ToolSet } from 'ai';
import { CHAT_LIMITS, type ChatStreamEvents } from '@service/shared/widget-protocol';
import type { Deps } from '../../infra/deps';
import type { ChatRequestBody } from './chat-request';
import type { StoredAgent } from '../../domains/agents/agents';
import type { AgentTool } from '../../domains/skills/agent-tool';
import { skillToolbox, type Toolbox } from '../../domains/skills/skill-toolbox';
import type { BuiltinRole } from '../../domains/skills/roles';
import { countConversationToolCall, storePendingAction } from '../../domains/conversations/pending-actions';
import type { RetrievalGuard } from '../../domains/runs/runtime/retrieval-guard';
import { KNOWLEDGE_SEARCH_CAPABILITY, sourcesOf } from '../../domains/runs/runtime/run-sources';
import type { CitationBook } from '../../domains/runs/runtime/cited-answer';
import type { VisitorIdentity } from '../../domains/visitor-identity/visitor-identity';

/** A widget visitor acts as the `public` role: only the capabilities a company granted to it are offered. */
export const VISITOR_ROLE: BuiltinRole = 'public';

export interface VisitorConversation {
  agent: StoredAgent;
  conversationId: string;
  /** The conversation language of this turn (chat-language.ts), sent to skills as X-Service-Language. */
  language: string;
  /** Who the visitor proved to be this turn (absent: anonymous); a signed token unlocks `requires_verified_visitor` grants. */
  visitor?: VisitorIdentity;
}

/** The skill tools the visitor's role may use in this conversation (the run id of their turn tokens is the conversation). */
export const visitorToolbox = (deps: Deps, conversation: VisitorConversation): Promise<Toolbox> =>
  skillToolbox(deps, {
    agent: conversation.agent,
    runId: conversation.conversationId,
    roles: [VISITOR_ROLE],
    language: conversation.language,
    verifiedVisitor: conversation.visitor?.proof === 'token',
  });

const SUMMARY_CHARS = 300;

/** What the visitor is asked to confirm: what the tool does and the values it would do it with. */
export function actionSummary(agentTool: AgentTool, input: Record<string, unknown>): string {
  const what = agentTool.description.split(/[.\n]/)[0]?.trim() || agentTool.capability;
  const values = Object.entries(input).map(
    ([key, value]) =>
      `${key.replace(/_/g, ' ')}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
  );
  const summary = values.length > 0 ? `${what} (${values.join('; ')})` : what;
  return summary.length > SUMMARY_CHARS ? `${summary.slice(0, SUMMARY_CHARS - 1)}…` : summary;
}

/** The model-facing answer of a tool that did not run, so it can tell the visitor. */
const notRun = (reason: string) => ({ performed: false, reason });

/**
 * What a reply's tool calls do to the conversation: live, each counts against the conversation's limit and an action
 * waits for the visitor's Confirm (`confirmingActions`); in an eval, nothing is stored and the action goes to the
 * sandbox that records it (domains/evals/sandbox.ts).
 */
export interface ReplyActions {
  /** False once the conversation used all its tool calls. */
  countCall(): Promise<boolean>;
  /** What the model hears of an acting tool's call (nothing has been performed by then). */
  act(agentTool: AgentTool, input: Record<string, unknown>): Promise<unknown>;
}

/** The live widget's: an action is stored and shown to the visitor as a `confirm` event, and runs only on their Confirm (decision.ts). */
export function confirmingActions(deps: Deps, conversation: VisitorConversation, onConfirm: (event: ChatStreamEvents['confirm']) => void): ReplyActions {
  return {
    countCall: () => countConversationToolCall(deps, conversation.conversationId),
    act: async (agentTool, input) => {
      const summary = actionSummary(agentTool, input);
      const actionId = await storePendingAction(deps, conversation.conversationId, {
        toolName: agentTool.name,
        input,
        summary,
        language: conversation.language,
      });
      onConfirm({ actionId, summary });
      return {
        performed: false,
        status: 'awaiting_visitor_confirmation',
        detail: 'The visitor sees Confirm and Decline buttons; it runs only if they confirm.',
      };
    },
  };
}

/** What one reply knows beyond the conversation: the page the visitor is on, and the guard of its actions. */
export interface ReplyContext {
  /** The passages the reply's searches returned, numbered for the model to cite. */
  citations: CitationBook;
  guard: RetrievalGuard;
  /** What the reply's knowledge searches found (whether the question was left unanswered). */
  knowledge: { searched: boolean; passages: number };
}

/**
 * The visitor's skill tools for one reply. Every call counts against the reply's and the conversation's limits;
 * a read runs at once, an action goes to `actions.act` (live: the visitor's Confirm). A knowledge passage comes with
 * its number to cite; an action that retrieved content aimed (retrieval-guard.ts) is not even put to the visitor.
 */
export function replyTools(deps: Deps, conversation: VisitorConversation, tools: readonly AgentTool[], actions: ReplyActions, reply: ReplyContext): ToolSet {
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
          if (!(await actions.countCall())) return notRun('this conversation has used all its tool calls');
          if (agentTool.effect === 'act') {
            const refusal = reply.guard.refusal(input);
            if (refusal) return notRun(refusal);
            return actions.act(agentTool, input);
          }
          try {
            const result = await agentTool.execute(input, context);
            const retrieved = agentTool.capability === KNOWLEDGE_SEARCH_CAPABILITY;
            reply.guard.observe(result, retrieved);
            if (retrieved) {
              reply.knowledge.searched = true;
              reply.knowledge.passages += sourcesOf(result).length;
            }
            return retrieved ? reply.citations.numbered(result) : result;
          } catch (error) {
            return { error: error instanceof Error ? error.message : String(error) };
          }
        },
      }),
    ]),
  );
}

/** What a visitor-facing reply other than the live widget's is given (an eval's door, an e-mail's answer): the conversation so far, the tools, the actions and the handoff. */
export interface VisitorReplyInput {
  model: LanguageModel;
  conversation: VisitorConversation;
  body: ChatRequestBody;
  tools: readonly AgentTool[];
  actions: ReplyActions;
  handoff: Tool | undefined;
}
