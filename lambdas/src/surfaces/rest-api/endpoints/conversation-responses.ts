import type { DataOf } from '@service/shared';
import type { ConversationSummary, TranscriptMessage } from '../../../domains/conversations/agent-conversations';
import { seqOf, type StoredMessage } from '../../../domains/conversations/conversations';
import { heldWhy, unverifiedWhy } from '../../../domains/mail/mail-view';
import type { InboundMailItem } from '../../../domains/mail/mail-view';

/** A conversation and its transcript entries as the conversations/* endpoints answer them. */

type Summary = DataOf<'conversationsGet'>['conversation'];
type Message = DataOf<'conversationsGet'>['messages'][number];

export const summaryResponse = (summary: ConversationSummary): Summary => ({
  id: summary.conversationId,
  agent_id: summary.agentId,
  started_at: summary.startedAt,
  last_message_at: summary.lastMessageAt,
  messages: summary.messages,
  visitor: { id: summary.visitorId, verified_user_id: summary.userId },
  locale: summary.locale,
  channel: summary.channel,
  email: summary.email,
  handler: summary.handling.handler,
  assignee: summary.handling.assignee ?? null,
  handoff: summary.handling.handoff
    ? { reason: summary.handling.handoff.reason, summary: summary.handling.handoff.summary, requested_at: summary.handling.handoff.requestedAt }
    : null,
  unread: summary.unread,
  page: summary.page,
  visitor_email: summary.visitorEmail,
  email_replies: summary.emailReplies,
  preview: summary.preview,
});

/** `mail`: the inbound mail the entry was made of (conversations/get). */
export const messageResponse = (message: TranscriptMessage, mail?: InboundMailItem): Message => ({
  seq: message.seq,
  role: message.role,
  text: message.content,
  at: message.createdAt,
  author: message.author ?? null,
  event: message.event ?? null,
  ...(message.stopped ? { stopped: true } : {}),
  ...(mail ? { mail: mailResponse(mail) } : {}),
});

const mailResponse = (mail: InboundMailItem): NonNullable<Message['mail']> => {
  const held = heldWhy(mail);
  return {
    mail_id: mail.mailId,
    from: mail.from ?? null,
    from_name: mail.fromName ?? null,
    subject: mail.subject ?? '',
    html: mail.html ?? null,
    full_text: mail.fullText ?? mail.text ?? '',
    verdicts: mail.verdicts ?? { spf: 'none', dkim: 'none', dmarc: 'none' },
    unverified: unverifiedWhy(mail) ?? null,
    held: held ? { reason: held } : null,
    decided: mail.state === 'accepted' || mail.state === 'dismissed' ? mail.state : null,
    attachments: (mail.attachments ?? []).map((attachment, index) => ({
      index,
      filename: attachment.filename,
      type: attachment.type,
      bytes: attachment.bytes,
      refused: attachment.key ? null : (attachment.refused ?? 'too_large'),
    })),
  };
};

export const storedResponse = ({ messageId, ...message }: StoredMessage): Message => messageResponse({ ...message, seq: seqOf(messageId) });
