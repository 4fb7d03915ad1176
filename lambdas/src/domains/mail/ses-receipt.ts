import * as z from 'zod';
import type { Deps } from '../../infra/deps';
import { acceptMail, mailBlobs, recipientAgent } from './receive';
import type { MailVerdicts } from './repository';

/**
 * SES receiving's notification of a mail (its S3 action kept the raw MIME in the stack's bucket), as SNS wraps it on
 * its way to the `mail` queue: https://docs.aws.amazon.com/ses/latest/dg/receiving-email-notifications-contents.html
 */
const verdict = z.object({ status: z.string().max(40) });
const sesReceived = z.object({
  notificationType: z.literal('Received'),
  mail: z.object({ messageId: z.string().min(1).max(200), source: z.string().max(1000) }),
  receipt: z.object({
    recipients: z.array(z.string().max(1000)).min(1).max(100),
    action: z.object({ type: z.literal('S3'), bucketName: z.string().min(1), objectKey: z.string().min(1).max(1024) }),
    spfVerdict: verdict,
    dkimVerdict: verdict,
    dmarcVerdict: verdict,
  }),
});
const snsNotification = z.object({ Type: z.literal('Notification'), Message: z.string().max(256 * 1024) });

export type SesReceipt = z.infer<typeof sesReceived>;

/** The SES receipt an SNS notification carries; undefined: not one (malformed, or another notification type). */
export function readSesReceipt(body: unknown): SesReceipt | undefined {
  const sns = snsNotification.safeParse(body);
  if (!sns.success) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(sns.data.Message);
  } catch {
    return undefined;
  }
  const receipt = sesReceived.safeParse(message);
  return receipt.success ? receipt.data : undefined;
}

/** SES's verdict statuses as the platform records them (authenticate.ts's words): anything but `pass` is unverified. */
const VERDICTS: Record<string, string> = { PASS: 'pass', FAIL: 'fail', GRAY: 'none', PROCESSING_FAILED: 'temperror' };
const verdictOf = (status: string) => VERDICTS[status] ?? 'none';

/**
 * Accepts the mail an SES receipt names, once per recipient of ours however often SES delivers it (the delivery id is
 * its message id and the recipient); its raw MIME stays where the S3 action put it. The ids of the mails to work.
 */
export async function acceptSesReceipt(deps: Deps, receipt: SesReceipt): Promise<string[]> {
  const raw = await mailBlobs(deps).get(receipt.receipt.action.objectKey);
  if (!raw) throw new Error(`the raw mail ${receipt.mail.messageId} is not in the blob store`);
  const verdicts: MailVerdicts = { spf: verdictOf(receipt.receipt.spfVerdict.status), dkim: verdictOf(receipt.receipt.dkimVerdict.status), dmarc: verdictOf(receipt.receipt.dmarcVerdict.status) };
  const mailIds: string[] = [];
  for (const recipient of receipt.receipt.recipients) {
    const agent = await recipientAgent(deps, recipient);
    if (!agent) continue;
    mailIds.push(
      await acceptMail(deps, { raw, envelopeFrom: receipt.mail.source, recipient, agent, deliveryId: `${receipt.mail.messageId}#${recipient.toLowerCase()}`, rawKey: receipt.receipt.action.objectKey, verdicts, queued: false }),
    );
  }
  return mailIds;
}
