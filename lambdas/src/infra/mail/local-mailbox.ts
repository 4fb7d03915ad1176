import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import PostalMime from 'postal-mime';
import type { Store } from '../store/dynamo';
import { composeMail } from './compose';
import type { MailMessage, MailTransport } from './mail';

const MAILBOX = 'local';

/** The headers a person reads a thread by (GET /dev/mail.json shows them on every mail). */
const THREAD_HEADERS = ['message-id', 'in-reply-to', 'references', 'reply-to', 'auto-submitted'] as const;

export interface DeliveredMail {
  to: string;
  from: string | null;
  subject: string;
  text: string;
  sent_at: string;
  /** Message-ID, In-Reply-To, References, Reply-To, Auto-Submitted as sent (absent ones left out). */
  headers: Record<string, string>;
  /** The mail's parts: `text/plain`, and `text/html` when it has one. */
  parts: { type: string; content: string }[];
}

/** The local platform's mail transport: every message is composed as MIME and lands in the mailbox table of the embedded store. */
export function localMailbox(store: Store, now: () => Date, options: { from: string; domain: string }, onSent?: (mail: DeliveredMail) => void): MailTransport {
  return {
    async send(message: MailMessage) {
      const sentAt = now().toISOString();
      const { raw, messageId } = await composeMail(message, options.from, options.domain);
      const parsed = await PostalMime.parse(raw);
      const headers = Object.fromEntries(
        parsed.headers.filter((header) => (THREAD_HEADERS as readonly string[]).includes(header.key)).map((header) => [header.key, header.value]),
      );
      const mail: DeliveredMail = {
        to: message.to,
        from: message.from ?? null,
        subject: message.subject,
        text: message.text,
        sent_at: sentAt,
        headers,
        parts: [{ type: 'text/plain', content: parsed.text ?? '' }, ...(parsed.html ? [{ type: 'text/html', content: parsed.html }] : [])],
      };
      await store.doc.send(
        new PutCommand({
          TableName: store.table('mailbox'),
          Item: {
            mailbox: MAILBOX,
            // Sorts by time; the monotonic tail orders two mails of one millisecond (or of a test's pinned clock).
            sk: `${sentAt}#${process.hrtime.bigint().toString().padStart(20, '0')}`,
            ...mail,
            sentAt,
          },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
      onSent?.(mail);
      return { messageId };
    },
  };
}

/** The mailbox, newest first (GET /dev/mail.json). */
export async function readMailbox(store: Store, limit = 100): Promise<DeliveredMail[]> {
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.table('mailbox'),
      KeyConditionExpression: 'mailbox = :m',
      ExpressionAttributeValues: { ':m': MAILBOX },
      ScanIndexForward: false,
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).map((item) => ({
    to: item.to as string,
    from: (item.from as string | null) ?? null,
    subject: item.subject as string,
    text: item.text as string,
    sent_at: item.sentAt as string,
    headers: (item.headers as Record<string, string> | undefined) ?? {},
    parts: (item.parts as DeliveredMail['parts'] | undefined) ?? [{ type: 'text/plain', content: item.text as string }],
  }));
}
