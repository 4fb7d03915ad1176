import type { Deps } from '../../infra/deps';
import type { ParsedMail } from './parse';
import { countAutoReply, type MailVerdicts } from './repository';

/**
 * Mail the agent never answers (RFC 3834 and docs/email.md), and why: another machine's automatic mail, a list's,
 * a bounce, the platform's own, spam, a virus (SES's verdicts). Undefined: it may be answered.
 */
export type IgnoreReason = 'auto_submitted' | 'bulk' | 'mailing_list' | 'bounce' | 'own_mail' | 'spam' | 'virus' | 'reply_limit' | 'no_sender';

const BOUNCE_SENDERS = /^(mailer-daemon|postmaster|mail-daemon)@/i;

export function neverAnswered(
  mail: ParsedMail,
  envelopeFrom: string,
  rules: { agentMailDomain: string; blockedSenders: readonly string[] },
  verdicts?: MailVerdicts,
): IgnoreReason | undefined {
  if (verdicts?.virus === 'fail') return 'virus';
  if (verdicts?.spam === 'fail') return 'spam';
  const from = mail.from?.address;
  // A bounce: the null reverse path, a mailer daemon, or a delivery status report (with a From or without).
  if (envelopeFrom === '' || (from && BOUNCE_SENDERS.test(from)) || mail.contentType === 'multipart/report') return 'bounce';
  if (!from) return 'no_sender';
  if (rules.blockedSenders.some((rule) => (rule.startsWith('@') ? from.endsWith(rule) : from === rule))) return 'spam';
  if (from.endsWith(`@${rules.agentMailDomain.toLowerCase()}`)) return 'own_mail';
  const autoSubmitted = mail.headers.get('auto-submitted')?.split(';')[0]?.trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== 'no') return 'auto_submitted';
  if (/^(bulk|list|junk)$/i.test(mail.headers.get('precedence')?.trim() ?? '')) return 'bulk';
  if (mail.headers.has('list-id') || mail.headers.has('list-unsubscribe')) return 'mailing_list';
  if (mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond')) return 'auto_submitted';
  return undefined;
}

/**
 * Counts one automatic answer from `agentId` to `sender` this hour; false once the sender had the hourly limit, so two
 * platforms answering each other stop (RFC 3834). The count expires an hour after its hour.
 */
export function takeAutoReply(deps: Deps, agentId: string, sender: string): Promise<boolean> {
  const now = deps.now();
  return countAutoReply(deps, agentId, sender, now.toISOString().slice(0, 13), deps.config.mailAutoRepliesPerHour, Math.floor(now.getTime() / 1000) + 7200);
}
