import type { Deps } from '../../infra/deps';
import { readInboundMail, type InboundMailItem } from './repository';

export type { InboundMailItem };

/**
 * The inbound mails behind a conversation's transcript entries, for the inbox: thread-mail.ts stores the customer's
 * entry of a mail, or the note of a held one, under the seed `mail:<mailId>`, so a transcript names its mails without
 * a table of its own. Only mails of that conversation of that workspace are answered.
 */
export const mailSeed = (mailId: string) => `mail:${mailId}`;

const mailIdOf = (seed: string | undefined) => (seed?.startsWith('mail:') ? seed.slice('mail:'.length) : undefined);

/** The mails of the entries seeded by one, by seed. */
export async function mailsOfEntries(
  deps: Deps,
  scope: { workspaceId: string; conversationId: string },
  seeds: (string | undefined)[],
): Promise<Map<string, InboundMailItem>> {
  const ids = [...new Set(seeds.map(mailIdOf).filter((id) => id !== undefined))];
  const mails = await Promise.all(ids.map((id) => readInboundMail(deps, id)));
  return new Map(
    mails
      .filter((mail) => mail?.workspaceId === scope.workspaceId && mail.conversationId === scope.conversationId)
      .map((mail) => [mailSeed(mail!.mailId), mail!]),
  );
}

export type Unverified = 'dmarc_failed' | 'no_dmarc_pass' | 'not_the_customer';

/** Why the sender is not to be trusted as the customer (docs/email.md, "The verdicts"); undefined: DMARC passed and it is the customer. */
export function unverifiedWhy(mail: InboundMailItem): Unverified | undefined {
  if (mail.reason === 'not_the_customer') return 'not_the_customer';
  if (mail.verdicts?.dmarc === 'fail') return 'dmarc_failed';
  return mail.verdicts?.dmarc === 'pass' ? undefined : 'no_dmarc_pass';
}

/** Why a mail was held for a teammate (and may still wait for one), if it was. */
export const heldWhy = (mail: InboundMailItem): 'not_the_customer' | 'dmarc_failed' | undefined =>
  ['held', 'accepted', 'dismissed'].includes(mail.state) && (mail.reason === 'not_the_customer' || mail.reason === 'dmarc_failed') ? mail.reason : undefined;
