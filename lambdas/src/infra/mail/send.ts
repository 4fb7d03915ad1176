import type { Deps } from '../deps';
import type { MailMessage } from './mail';

/** Sends through the platform's one mail transport; a function wired without one fails loudly rather than losing mail. */
export async function sendMail(deps: Deps, message: MailMessage): Promise<void> {
  if (!deps.mail) throw new Error('This function has no mail transport (entries/lambda: withMail)');
  await deps.mail.send(message);
}
