import type { Deps } from '../deps';
import type { MailMessage } from './mail';

/** Sends through the platform's one mail transport (its final Message-ID); a function wired without one fails loudly rather than losing mail. */
export async function sendMail(deps: Deps, message: MailMessage): Promise<{ messageId: string }> {
  if (!deps.mail) throw new Error('This function has no mail transport (entries/lambda: withMail)');
  return deps.mail.send(message);
}
