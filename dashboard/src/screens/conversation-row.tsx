import type { ConversationChannel } from '@service/shared/live-conversation';
import type { InboxConversation } from '../inbox-stream';
import { when } from '../format';

/**
 * One row of the inbox list, read without opening it (as Intercom's and Crisp's lists are): who wrote, by which
 * channel, the last message's first line, and why it waits for a teammate. Every text is rendered as text.
 */

/** Why the conversation passed to people, as the inbox says it. */
export const HANDOFF_REASON = {
  visitor: 'the visitor asked for a person',
  agent: 'the agent handed it over',
  keyword: 'a handoff keyword',
  teammate: 'a teammate took it over',
} as const;

/** Where the customer writes from, as the inbox labels it. */
export const CHANNEL_LABEL = { widget: 'Widget', email: 'E-mail' } as const satisfies Record<ConversationChannel, string>;

/** Who the conversation is with: the mail's sender, the address they left, the host's verified user id, else a short visitor label. */
export const whoOf = (conversation: InboxConversation): string =>
  conversation.email?.address ?? conversation.visitor_email ?? conversation.visitor.verified_user_id ?? `Visitor ${conversation.visitor.id.slice(0, 8)}`;

/** Why it waits for a teammate (the agent's summary, else the reason it passed to people); null while the agent has it or it is closed. */
export function whyItWaits(conversation: InboxConversation): string | null {
  if (conversation.handler !== 'people') return null;
  const reasons = [
    ...(conversation.handoff ? [conversation.handoff.summary || `Handed over: ${HANDOFF_REASON[conversation.handoff.reason]}`] : []),
    ...(conversation.email_replies ? ['the visitor left an address and is away'] : []),
  ];
  return reasons.length ? reasons.join(' · ') : null;
}

const SAID_BY = { user: '', assistant: 'Agent: ', teammate: 'Teammate: ' } as const;
const HANDLED = { agent: 'The agent answers', closed: 'Closed' } as const;
/** Who has it: the teammate who claimed it, nobody yet (it waits), the agent, or nobody any more. */
const holder = (conversation: InboxConversation): string =>
  conversation.handler === 'people' ? (conversation.assignee?.name ?? 'Waiting') : HANDLED[conversation.handler];

export function ConversationRow({ conversation, open, onToggle }: { conversation: InboxConversation; open: boolean; onToggle: () => void }) {
  const { channel } = conversation;
  const why = whyItWaits(conversation);
  const { preview } = conversation;
  return (
    <button type="button" class="quiet wide conversation-row" aria-pressed={open} onClick={onToggle}>
      <span class="row-head">
        <strong class="row-who">{whoOf(conversation)}</strong>
        <span class={`badge channel ${channel}`}>{CHANNEL_LABEL[channel]}</span>
        {conversation.unread ? <strong class="count">{conversation.unread} unread</strong> : null}
        <span class="muted small row-when">
          {when(conversation.last_message_at)} · {conversation.messages} messages
        </span>
      </span>
      {conversation.email ? <span class="row-subject">{conversation.email.subject || '(no subject)'}</span> : null}
      <span class="row-preview">{preview ? `${SAID_BY[preview.role]}${preview.text}` : <span class="muted">No messages yet</span>}</span>
      <span class="row-why small">
        <span class="row-holder">{holder(conversation)}</span>
        {why ? ` · ${why}` : null}
      </span>
    </button>
  );
}
