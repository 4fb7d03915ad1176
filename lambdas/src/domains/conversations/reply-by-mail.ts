import { getAgentIdentity } from '../agents/agents';
import type { Deps } from '../../infra/deps';
import { sendMail } from '../../infra/mail/send';
import { fallbackPhrases } from './fallback-phrases';
import { markMailed, type ConversationMetaItem, type StoredMessage } from './repository';

/**
 * A teammate's reply to a visitor who left an e-mail address and has not written in the widget since (issue 29): it
 * goes to that address too (the local mailbox, or Amazon SES), once. The mail is sent, then recorded on the entry; a
 * retry of the reply (its Idempotency-Key after a crash) finds the record and sends nothing. Only a crash between the
 * send and its record (the send's own moment) could send it twice; none can lose it.
 */
export async function mailReply(deps: Deps, meta: ConversationMetaItem, message: StoredMessage): Promise<void> {
  if (!meta.emailReplies || !meta.visitorEmail || message.role !== 'teammate' || message.mailedAt) return;
  const agent = await getAgentIdentity(deps, meta.workspaceId, meta.agentId);
  const phrases = fallbackPhrases(meta.emailLanguage ?? meta.locale);
  await sendMail(deps, { to: meta.visitorEmail, subject: phrases.subject(agent.name), text: phrases.mail(message.author?.name ?? agent.name, message.content) });
  await markMailed(deps, meta.conversationId, message.messageId, deps.now());
}
