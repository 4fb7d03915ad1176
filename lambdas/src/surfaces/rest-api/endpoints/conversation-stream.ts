import { conversationSummary } from '../../../domains/conversations/agent-conversations';
import { summaryResponse } from './conversation-responses';
import type { EndpointHandler } from './types';

/**
 * conversations/stream through the pipeline: it checks the caller and that the conversation is their workspace's, and
 * answers it; the streaming function (../conversation-stream.ts) then streams it. A module of its own, so that function
 * carries nothing else of the conversation endpoints (no writes, no webhooks).
 */
export const conversationsStream: EndpointHandler<'conversationsStream'> = async ({ deps, workspace, query }) => ({
  data: { conversation: summaryResponse(await conversationSummary(deps, workspace.id, query.conversation_id)) },
});
