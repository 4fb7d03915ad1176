import { getAgent } from '../../../domains/agents/agents';
import { conversationSummary } from '../../../domains/conversations/agent-conversations';
import { summaryResponse } from './conversation-responses';
import type { EndpointHandler } from './types';

/**
 * conversations/stream and conversations/inbox_stream through the pipeline: it checks the caller and that the
 * conversation (or agent) is their workspace's, and answers it; the streaming function (../conversation-stream.ts,
 * ../inbox-stream.ts) then streams it. A module of its own, so that function carries nothing else of the conversation
 * endpoints (no writes, no webhooks).
 */
export const conversationsStream: EndpointHandler<'conversationsStream'> = async ({ deps, workspace, query }) => ({
  data: { conversation: summaryResponse(await conversationSummary(deps, workspace.id, query.conversation_id)) },
});

export const conversationsInboxStream: EndpointHandler<'conversationsInboxStream'> = async ({ deps, workspace, session, query }) => {
  if (query.agent_id) await getAgent(deps, workspace.id, query.agent_id);
  return { data: { workspace_id: workspace.id, agent_id: query.agent_id ?? null, reader_id: session?.userId ?? null } };
};
