import { getAgent } from '../agents/agents';
import type { Deps } from '../../infra/deps';
import { fallbackPhrases } from './fallback-phrases';
import { customerAddress, mailInThread } from './mail-thread';
import { markMailed, startMailAttempt, type ConversationMetaItem, type StoredMessage } from './repository';

/**
 * Sends of one reply's mail at most: the first, and one more when a crash inside the first left it unknown whether
 * it went. SES's SendEmail takes no idempotency token and replaces a Message-ID header with its own, so nothing lets
 * the second send be recognised as the same mail: a third is never started.
 */
export const MAIL_ATTEMPTS = 2;

/**
 * A reply that goes by e-mail (issues 29 and 38): a teammate's in an e-mail conversation, or to a widget visitor who
 * left an address and has not written in the widget since; the agent's own answer to a mail (surfaces/mail). It goes
 * in the conversation's thread (mail-thread.ts), so the customer's answer comes back to the conversation. The attempt
 * is recorded on the entry, the mail is sent, then the send is recorded; a retry that finds the send recorded sends
 * nothing. One that finds only an attempt cannot tell whether the crash came before or after the send: it sends once
 * more (at least once, at most twice), and never again after that.
 */
export async function mailEntry(
  deps: Deps,
  meta: ConversationMetaItem,
  message: StoredMessage,
  options: { autoSubmitted?: 'auto-replied' } = {},
): Promise<void> {
  const to = customerAddress(meta);
  if (!to || message.mailedAt) return;
  if (!(await startMailAttempt(deps, meta.conversationId, message.messageId, MAIL_ATTEMPTS))) return;
  const agent = await getAgent(deps, meta.workspaceId, meta.agentId);
  const phrases = fallbackPhrases(meta.emailLanguage ?? meta.locale);
  const author = message.author?.name ?? agent.name;
  const subject = meta.email ? replySubject(meta.email.subject) : phrases.subject(agent.name);
  const text = meta.email ? `${message.content}\n\n${author}` : phrases.mail(author, message.content);
  await mailInThread(deps, meta, agent, { to, subject, text, html: mailHtml(text), ...options });
  await markMailed(deps, meta.conversationId, message.messageId, deps.now());
}

/** A teammate's reply: by e-mail when the conversation's customer is reached that way (once, even when this is a retry). */
export async function mailReply(deps: Deps, meta: ConversationMetaItem, message: StoredMessage): Promise<void> {
  if (message.role === 'teammate') await mailEntry(deps, meta, message);
}

/** `Re: <subject>`, once. */
export const replySubject = (subject: string): string => (/^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`.trim());

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** A plain text reply as HTML: escaped, paragraphs and line breaks kept, web addresses as links. */
export function mailHtml(text: string): string {
  const paragraphs = text.split(/\n{2,}/).map((paragraph) =>
    escapeHtml(paragraph)
      .replace(/https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g, (url) => `<a href="${url}">${url}</a>`)
      .replace(/\n/g, '<br>'),
  );
  return `<!doctype html><html><body>${paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('')}</body></html>`;
}
