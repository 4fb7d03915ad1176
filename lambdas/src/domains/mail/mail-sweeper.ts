import type { Deps } from '../../infra/deps';
import { queryUnworkedMails } from './repository';

/** A mail still unworked this long after it was stored lost its queue message (or its worker died); well past a reply's bound. */
export const UNWORKED_AFTER_MS = 3 * 60_000;
const BATCH = 50;

/**
 * Mails a crash left stored but unworked get their `mail` message again: the sender heard 250 once the record was
 * stored (receive.ts), so a lost queue message must not lose the mail. Working a mail twice does nothing more
 * (thread-mail.ts, the consumer: its entry and its answer are stored once). Run with the run sweeper (every minute in
 * AWS, the local platform's timer). The ids sent again.
 */
export async function sweepMails(deps: Deps): Promise<string[]> {
  const stranded = await queryUnworkedMails(deps, new Date(deps.now().getTime() - UNWORKED_AFTER_MS).toISOString(), BATCH);
  for (const mail of stranded) await deps.queue.send('mail', { mailId: mail.mailId });
  return stranded.map((mail) => mail.mailId);
}
