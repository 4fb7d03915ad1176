import { DomainError } from '@service/shared';
import { LIVE_LIMITS, type Teammate } from '@service/shared/live-conversation';
import { getAgent } from '../../../domains/agents/agents';
import { conversationFilter, conversationTranscript, listAgentConversations, toSummary } from '../../../domains/conversations/agent-conversations';
import { readConversation } from '../../../domains/conversations/conversation-state';
import { markRead } from '../../../domains/conversations/read-markers';
import { assignConversation, closeConversation, handBack, reopenConversation, teammateEntry, teammateTyping } from '../../../domains/conversations/handling';
import { conversationsInboxStream, conversationsStream } from './conversation-stream';
import { messageResponse, storedResponse, summaryResponse } from './conversation-responses';
import { memberAsTeammate } from '../../../domains/people/members';
import { availableAt, readAvailability, setAvailability } from '../../../domains/conversations/availability';
import type { AvailabilitySettings } from '@service/shared/live-conversation';
import type { Deps } from '../../../infra/deps';
import { findAttachment } from '../../../domains/mail/attachments';
import { mailsOfEntries } from '../../../domains/mail/mail-view';
import { acceptHeldMail, dismissHeldMail } from '../../../domains/mail/held-mail';
import type { EndpointHandlers, EndpointInput } from './types';

/** The signed-in teammate; undefined for an API key (it acts for the workspace, not for a person). */
const caller = (input: Pick<EndpointInput<'conversationsReply'>, 'session'>): Teammate | undefined =>
  input.session && { id: input.session.userId, name: input.session.displayName || input.session.email };

export type ConversationEndpoint =
  | 'conversationsList'
  | 'conversationsGet'
  | 'conversationsReply'
  | 'conversationsNote'
  | 'conversationsAssign'
  | 'conversationsHandback'
  | 'conversationsClose'
  | 'conversationsReopen'
  | 'conversationsRead'
  | 'conversationsTyping'
  | 'conversationsAvailability'
  | 'conversationsAvailabilitySet'
  | 'conversationsStream'
  | 'conversationsInboxStream'
  | 'conversationsAttachment'
  | 'conversationsMailAccept'
  | 'conversationsMailDismiss';

const availabilityAnswer = (deps: Deps, availability: AvailabilitySettings) => ({
  data: { availability, available_now: availableAt(availability, deps.now()) },
});

/** The widget conversations of an agent (the dashboard's Conversations screen and the inbox), and people in them. */
export const conversationEndpoints: EndpointHandlers<ConversationEndpoint> = {
  conversationsList: async (input) => {
    const { deps, workspace, query } = input;
    await getAgent(deps, workspace.id, query.agent_id);
    const filter = conversationFilter(query.state, caller(input)?.id);
    const { conversations, nextCursor } = await listAgentConversations(
      deps,
      query.agent_id,
      { limit: query.limit, cursor: query.cursor },
      filter,
      caller(input)?.id,
    );
    return { data: { conversations: conversations.map(summaryResponse), next_cursor: nextCursor } };
  },

  conversationsGet: async (input) => {
    const { deps, workspace, query } = input;
    const { conversation, messages } = await conversationTranscript(deps, workspace.id, query.conversation_id, caller(input)?.id);
    const mails =
      conversation.channel === 'email' || conversation.visitorEmail
        ? await mailsOfEntries(
            deps,
            { workspaceId: workspace.id, conversationId: conversation.conversationId },
            messages.map((message) => message.actionSeed),
          )
        : new Map();
    return {
      data: {
        conversation: summaryResponse(conversation),
        messages: messages.map((message) => messageResponse(message, message.actionSeed ? mails.get(message.actionSeed) : undefined)),
      },
    };
  },

  conversationsReply: async (input) => {
    const { deps, workspace, body, action } = input;
    const { meta, message } = await teammateEntry(deps, workspace.id, body.conversation_id, { role: 'teammate', text: body.text, by: caller(input) }, action);
    return { data: { conversation: summaryResponse(toSummary(meta)), message: storedResponse(message) }, msg: 'Sent to the visitor' };
  },

  conversationsNote: async (input) => {
    const { deps, workspace, body, action } = input;
    const { meta, message } = await teammateEntry(deps, workspace.id, body.conversation_id, { role: 'note', text: body.text, by: caller(input) }, action);
    return { data: { conversation: summaryResponse(toSummary(meta)), message: storedResponse(message) }, msg: 'Note added (teammates only)' };
  },

  conversationsAssign: async (input) => {
    const { deps, workspace, body } = input;
    // Another workspace's conversation is not found, whoever is named.
    await readConversation(deps, workspace.id, body.conversation_id);
    const teammate = body.user_id ? await memberAsTeammate(deps, workspace.id, body.user_id) : caller(input);
    if (!teammate) {
      throw body.user_id
        ? new DomainError('NOT_FOUND', `${body.user_id} is not a member of this workspace`, { field: 'user_id' })
        : new DomainError('VALIDATION_ERROR', 'An API key claims for a member: name them with user_id', { field: 'user_id' });
    }
    const meta = await assignConversation(deps, workspace.id, body.conversation_id, teammate);
    return { data: { conversation: summaryResponse(toSummary(meta)) }, msg: `${teammate.name} handles the conversation` };
  },

  conversationsHandback: async (input) => {
    const meta = await handBack(input.deps, input.workspace.id, input.body.conversation_id, caller(input));
    return { data: { conversation: summaryResponse(toSummary(meta)) }, msg: 'The agent answers the next message' };
  },

  conversationsClose: async (input) => {
    const meta = await closeConversation(input.deps, input.workspace.id, input.body.conversation_id, caller(input));
    return { data: { conversation: summaryResponse(toSummary(meta)) }, msg: 'Conversation closed' };
  },

  conversationsReopen: async (input) => {
    const meta = await reopenConversation(input.deps, input.workspace.id, input.body.conversation_id, caller(input));
    return { data: { conversation: summaryResponse(toSummary(meta)) }, msg: 'The conversation waits for a teammate again' };
  },

  conversationsRead: async (input) => {
    const { readSeq, unread } = await markRead(input.deps, input.workspace.id, input.body.conversation_id, caller(input), input.body.seq);
    return { data: { conversation_id: input.body.conversation_id, read_seq: readSeq, unread } };
  },

  conversationsTyping: async (input) => {
    const until = await teammateTyping(input.deps, input.workspace.id, input.body.conversation_id, caller(input), LIVE_LIMITS.typingMs);
    return { data: { typing_until: until.toISOString() } };
  },

  conversationsAvailability: async ({ deps, workspace }) => availabilityAnswer(deps, await readAvailability(deps, workspace.id)),

  // Checked here; conversations-api.ts then serves the bytes as a file (a visitor's file: a signed-in teammate only, never a key).
  conversationsAttachment: async ({ deps, workspace, session, query }) => {
    if (!session) throw new DomainError('FORBIDDEN', 'An attachment is downloaded by a signed-in teammate in the dashboard, not with an API key');
    const meta = await readConversation(deps, workspace.id, query.conversation_id);
    const { key: _key, ...attachment } = await findAttachment(
      deps,
      { workspaceId: workspace.id, conversationId: meta.conversationId },
      query.mail_id,
      query.index,
    );
    return { data: { workspace_id: workspace.id, conversation_id: meta.conversationId, mail_id: query.mail_id, attachment } };
  },

  conversationsMailAccept: async (input) => {
    const { deps, workspace, body } = input;
    const target = await acceptHeldMail(deps, { workspaceId: workspace.id, conversationId: body.conversation_id }, body.mail_id, body.into, caller(input));
    return { data: { conversation_id: target }, msg: body.into === 'new' ? 'The mail starts a conversation of its own' : 'The mail joined the conversation' };
  },

  conversationsMailDismiss: async ({ deps, workspace, body }) => {
    await dismissHeldMail(deps, { workspaceId: workspace.id, conversationId: body.conversation_id }, body.mail_id);
    return { data: { mail_id: body.mail_id }, msg: 'The mail was dismissed' };
  },

  conversationsAvailabilitySet: async ({ deps, workspace, body }) => ({
    ...availabilityAnswer(deps, await setAvailability(deps, workspace.id, body)),
    msg: 'Availability saved',
  }),

  conversationsStream,
  conversationsInboxStream,
};
