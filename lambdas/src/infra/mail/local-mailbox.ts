import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../store/dynamo';
import type { MailMessage, MailTransport } from './mail';

const MAILBOX = 'local';

export interface DeliveredMail {
  to: string;
  from: string | null;
  subject: string;
  text: string;
  sent_at: string;
}

/** The local platform's mail transport: every message lands in the mailbox table of the embedded store. */
export function localMailbox(store: Store, now: () => Date, onSent?: (mail: DeliveredMail) => void): MailTransport {
  return {
    async send(message: MailMessage) {
      const sentAt = now().toISOString();
      await store.doc.send(
        new PutCommand({
          TableName: store.table('mailbox'),
          Item: {
            mailbox: MAILBOX,
            // Sorts by time; the monotonic tail orders two mails of one millisecond (or of a test's pinned clock).
            sk: `${sentAt}#${process.hrtime.bigint().toString().padStart(20, '0')}`,
            to: message.to,
            from: message.from ?? null,
            subject: message.subject,
            text: message.text,
            sentAt,
          },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
      onSent?.({ to: message.to, from: message.from ?? null, subject: message.subject, text: message.text, sent_at: sentAt });
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
  }));
}
