import { getAgent } from '../../../domains/agents/agents';
import { conversationTranscript, listAgentConversations, type ConversationSummary } from '../../../domains/conversations/agent-conversations';
import type { EndpointHandlers } from './types';

const summaryResponse = (summary: ConversationSummary) => ({
  id: summary.conversationId,
  agent_id: summary.agentId,
  started_at: summary.startedAt,
  last_message_at: summary.lastMessageAt,
  messages: summary.messages,
  visitor: { id: summary.visitorId, verified_user_id: summary.userId },
  locale: summary.locale,
});

export type ConversationEndpoint = 'conversationsList' | 'conversationsGet';

/** The widget conversations of an agent, read-only (the dashboard's Conversations screen). */
export const conversationEndpoints: EndpointHandlers<ConversationEndpoint> = {
  conversationsList: async ({ deps, workspace, query }) => {
    await getAgent(deps, workspace.id, query.agent_id);
    const { conversations, nextCursor } = await listAgentConversations(deps, query.agent_id, query.limit, query.cursor);
    return { data: { conversations: conversations.map(summaryResponse), next_cursor: nextCursor } };
  },

  conversationsGet: async ({ deps, workspace, query }) => {
    const { conversation, messages } = await conversationTranscript(deps, workspace.id, query.conversation_id);
    return {
      data: { conversation: summaryResponse(conversation), messages: messages.map((message) => ({ role: message.role, text: message.content, at: message.createdAt, ...(message.stopped ? { stopped: true } : {}) })) },
    };
  },
};
