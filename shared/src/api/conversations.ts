import * as z from 'zod';
import type { EndpointContract } from './contract';
import { isoDateTime, limitParam, uuid } from './primitives';

/** The widget conversations of an agent, read-only (the dashboard's Conversations screen); spread into ENDPOINTS. */

export const ConversationSummary = z
  .object({
    id: z.string(),
    agent_id: z.uuid(),
    started_at: isoDateTime,
    last_message_at: isoDateTime,
    messages: z.number().int().meta({ description: 'How many messages the conversation has' }),
    visitor: z.object({ id: z.string(), verified_user_id: z.string().nullable() }),
    locale: z.string(),
  })
  .meta({ id: 'ConversationSummary' });

export const ConversationMessage = z
  .object({ role: z.enum(['user', 'assistant']), text: z.string(), at: isoDateTime, stopped: z.boolean().optional().meta({ description: 'true: the visitor stopped this reply while it was written; `text` is what was written until then' }) })
  .meta({ id: 'ConversationMessage' });

export const ConversationsQuery = z.object({
  agent_id: uuid('agent_id'),
  limit: limitParam,
  cursor: z.string().max(500).optional().meta({ description: 'next_cursor of the previous page' }),
});
export const ConversationQuery = z.object({ conversation_id: z.string({ error: 'conversation_id is required' }).min(1).max(200) });

export const CONVERSATION_ENDPOINTS = {
  conversationsList: {
    path: 'conversations/list',
    method: 'GET',
    summary: "An agent's widget conversations, most recently started first",
    query: ConversationsQuery,
    data: z.object({ conversations: z.array(ConversationSummary), next_cursor: z.string().nullable() }),
    status: 200,
    access: 'read',
  },
  conversationsGet: {
    path: 'conversations/get',
    method: 'GET',
    summary: 'One conversation with its transcript, oldest message first',
    query: ConversationQuery,
    data: z.object({ conversation: ConversationSummary, messages: z.array(ConversationMessage) }),
    status: 200,
    access: 'read',
  },
} as const satisfies Record<string, EndpointContract>;
