import { getAgentIdentity } from '../agents/agents';
import type { Deps } from '../../infra/deps';
import { sendMail } from '../../infra/mail/send';
import { fallbackPhrases } from './fallback-phrases';
import { markMailed, startMailAttempt, type ConversationMetaItem, type StoredMessage } from './repository';

/**
 * Sends of one reply's mail at most: the first, and one more when a crash inside the first left it unknown whether
 * it went. SES's SendEmail takes no idempotency token and replaces a Message-ID header with its own, so nothing lets
 * the second send be recognised as the same mail: a third is never started.
 */
const MAIL_ATTEMPTS = 2;

/**
 * A teammate's reply to a visitor who left an e-mail address and has not written in the widget since (issue 29): it
 * goes to that address too (the local mailbox, or Amazon SES). The attempt is recorded on the entry, the mail is sent,
 * then the send is recorded; a retry of the reply (its Idempotency-Key after a crash) that finds the send recorded
 * sends nothing. One that finds only an attempt cannot tell whether the crash came before or after the send: it sends
 * once more (at least once, at most twice), and never again after that.
 */
export async function mailReply(deps: Deps, meta: ConversationMetaItem, message: StoredMessage): Promise<void> {
  if (!meta.emailReplies || !meta.visitorEmail || message.role !== 'teammate' || message.mailedAt) return;
  if (!(await startMailAttempt(deps, meta.conversationId, message.messageId, MAIL_ATTEMPTS))) return;
  const agent = await getAgentIdentity(deps, meta.workspaceId, meta.agentId);
  const phrases = fallbackPhrases(meta.emailLanguage ?? meta.locale);
  await sendMail(deps, { to: meta.visitorEmail, subject: phrases.subject(agent.name), text: phrases.mail(message.author?.name ?? agent.name, message.content) });
  await markMailed(deps, meta.conversationId, message.messageId, deps.now());
}
