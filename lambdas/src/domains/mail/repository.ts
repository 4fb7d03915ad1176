import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putIf, readItem, updateIf } from '../../infra/store/dynamo';

/**
 * The mail domain's repository: every store call of the `mail` table (shared/src/tables.ts): a record per inbound
 * mail, the dedupe items that keep one record per delivery, the hourly count of automatic replies per sender.
 */
const table = (deps: Deps) => deps.store.table('mail');

/** `accepted` / `dismissed`: a held mail a teammate decided on (held-mail.ts). */
export type MailState = 'received' | 'threaded' | 'answered' | 'held' | 'ignored' | 'accepted' | 'dismissed';

/** SPF, DKIM and DMARC as the receiving side judged them (mailauth locally, SES's receipt verdicts in AWS). */
export interface MailVerdicts {
  spf: string;
  dkim: string;
  dmarc: string;
  /** SES's spam and virus scans (AWS only): `fail` is spam, or a virus found. */
  spam?: string;
  virus?: string;
}

export interface MailAttachment {
  filename: string;
  type: string;
  bytes: number;
  /** Its blob key; absent for one over the caps (listed, not kept, `refused` says why). */
  key?: string;
  refused?: 'too_many' | 'too_large' | 'virus';
}

/** One inbound mail as stored before it is accepted (`received`), then worked. */
export interface InboundMailItem {
  mailId: string;
  agentId: string;
  workspaceId: string;
  /** The envelope: MAIL FROM (empty for a bounce) and the recipient it came to. */
  envelopeFrom: string;
  recipient: string;
  /** The connecting client, for SPF (locally; SES judges it in AWS). */
  remote?: { ip: string; helo: string };
  rawKey: string;
  bytes: number;
  receivedAt: string;
  state: MailState;
  /** Why it was held or ignored (docs/email.md). */
  reason?: string;
  verdicts?: MailVerdicts;
  from?: string;
  fromName?: string;
  subject?: string;
  messageId?: string;
  /** The new text of the mail (quoted history and signature taken off) and the HTML as the inbox shows it (sanitized). */
  text?: string;
  /** The whole text as sent (quoted history and signature included), for the inbox's folded history. */
  fullText?: string;
  html?: string;
  attachments?: MailAttachment[];
  conversationId?: string;
  /** Where an accepted held mail went (its own conversation, or the one it was written to). */
  acceptedInto?: string;
  /** `<workspaceId>#<sender address>`: the byCustomer index (a customer's mails for export and erasure). */
  customerKey?: string;
}

const mailKey = (mailId: string) => ({ pk: `mail#${mailId}`, sk: 'mail' });

/** Stores a new mail's record unless one with its id exists (a delivery seen before); false then. */
export const putInboundMail = (deps: Deps, mail: InboundMailItem): Promise<boolean> =>
  putIf(deps.store, table(deps), { ...mailKey(mail.mailId), ...mail, pendingState: 'received' }, { ConditionExpression: 'attribute_not_exists(pk)' });

export const readInboundMail = (deps: Deps, mailId: string) => readItem<InboundMailItem>(deps.store, table(deps), mailKey(mailId));

/** Records what working the mail found (parsed fields, verdicts, conversation, state) if its state is still `from`; the item as it now is. */
export function updateInboundMail(deps: Deps, mailId: string, from: MailState[], fields: Partial<InboundMailItem>): Promise<InboundMailItem | undefined> {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  const names = Object.fromEntries(entries.map(([key], index) => [`#f${index}`, key]));
  const values = Object.fromEntries(entries.map(([, value], index) => [`:f${index}`, value]));
  const finished = fields.state !== undefined && fields.state !== 'received' && fields.state !== 'threaded';
  return updateIf<InboundMailItem>(deps.store, table(deps), mailKey(mailId), {
    UpdateExpression: `SET ${entries.map((_, index) => `#f${index} = :f${index}`).join(', ')}${finished ? ' REMOVE pendingState' : ''}`,
    ConditionExpression: `#state IN (${from.map((_, index) => `:s${index}`).join(', ')})`,
    ExpressionAttributeNames: { ...names, '#state': 'state' },
    ExpressionAttributeValues: { ...values, ...Object.fromEntries(from.map((state, index) => [`:s${index}`, state])) },
  });
}

/** Takes the mail for one worker until `until` unless another holds it past `now`; false then. */
export const takeMailWork = (deps: Deps, mailId: string, now: string, until: string): Promise<boolean> =>
  updateIf(deps.store, table(deps), mailKey(mailId), {
    UpdateExpression: 'SET workUntil = :until',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(workUntil) OR workUntil < :now)',
    ExpressionAttributeValues: { ':until': until, ':now': now },
  }).then((set) => set !== undefined);

/** Claims a delivery's identity (SES's message id, or an agent's Message-ID) for `mailId`; the mail that had it before, if any. */
export async function claimDelivery(deps: Deps, identity: string, mailId: string): Promise<string | undefined> {
  if (await putIf(deps.store, table(deps), { pk: `dedupe#${identity}`, sk: 'dedupe', mailId }, { ConditionExpression: 'attribute_not_exists(pk)' }))
    return undefined;
  return (await readItem<{ mailId: string }>(deps.store, table(deps), { pk: `dedupe#${identity}`, sk: 'dedupe' }))?.mailId;
}

/** Counts one automatic reply to `sender` in the hour `hour` if fewer than `limit` were counted; whether it may go. */
export const countAutoReply = (deps: Deps, agentId: string, sender: string, hour: string, limit: number, expiresAtEpoch: number): Promise<boolean> =>
  updateIf(
    deps.store,
    table(deps),
    { pk: `replies#${agentId}#${sender}`, sk: hour },
    {
      UpdateExpression: 'ADD replies :one SET expiresAtEpoch = :expires',
      ConditionExpression: 'attribute_not_exists(replies) OR replies < :limit',
      ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': expiresAtEpoch },
    },
  ).then((set) => set !== undefined);

/** Mails still `received` or `threaded` that arrived before `before` (what a crash left unworked). */
export async function queryUnworkedMails(deps: Deps, before: string, limit: number): Promise<InboundMailItem[]> {
  const page = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      IndexName: 'pending',
      KeyConditionExpression: 'pendingState = :received AND receivedAt < :before',
      ExpressionAttributeValues: { ':received': 'received', ':before': before },
      Limit: limit,
    }),
  );
  return (page.Items ?? []) as InboundMailItem[];
}
