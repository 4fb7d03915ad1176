import * as z from 'zod';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { UNWORKED_AFTER_MS } from './mail-sweeper';
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
    // Present when the rule scans (cdk/lib/mail-receiving.ts does).
    spamVerdict: verdict.optional(),
    virusVerdict: verdict.optional(),
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

/** SES's verdict statuses as the platform records them (authenticate.ts's words): anything but `pass` is unverified; spam or a virus `fail`. */
const VERDICTS: Record<string, string> = { PASS: 'pass', FAIL: 'fail', GRAY: 'none', PROCESSING_FAILED: 'temperror' };
const verdictOf = (status: string) => VERDICTS[status] ?? 'none';

/** A mail an SES receipt names, and whether this delivery is to work it. */
export interface AcceptedReceipt {
  mailId: string;
  work: boolean;
}

/**
 * Accepts the mail an SES receipt names, once per recipient of ours however often SES delivers it (the delivery id is
 * its message id and the recipient); its raw MIME stays where the S3 action put it.
 */
export async function acceptSesReceipt(deps: Deps, receipt: SesReceipt): Promise<AcceptedReceipt[]> {
  const { action, spfVerdict, dkimVerdict, dmarcVerdict, spamVerdict, virusVerdict } = receipt.receipt;
  const blobs = mailBlobs(deps);
  // The action names the object in its bucket; the mail store is a folder of the stack's bucket (a local store: the key as it is).
  const rawKey = blobs.keyOfObject ? blobs.keyOfObject(action.bucketName, action.objectKey) : action.objectKey;
  if (!rawKey) {
    logger.warn('SES receipt refused: its mail is outside MAIL_BLOB_URI', { messageId: receipt.mail.messageId, bucket: action.bucketName });
    return [];
  }
  const raw = await blobs.get(rawKey);
  if (!raw) throw new Error(`the raw mail ${receipt.mail.messageId} is not in the blob store`);
  const verdicts: MailVerdicts = {
    spf: verdictOf(spfVerdict.status),
    dkim: verdictOf(dkimVerdict.status),
    dmarc: verdictOf(dmarcVerdict.status),
    ...(spamVerdict ? { spam: verdictOf(spamVerdict.status) } : {}),
    ...(virusVerdict ? { virus: verdictOf(virusVerdict.status) } : {}),
  };
  const accepted: AcceptedReceipt[] = [];
  for (const recipient of receipt.receipt.recipients) {
    const agent = await recipientAgent(deps, recipient);
    if (!agent) continue;
    const { mailId, earlier } = await acceptMail(deps, {
      raw,
      envelopeFrom: receipt.mail.source,
      recipient,
      agent,
      deliveryId: `${receipt.mail.messageId}#${recipient.toLowerCase()}`,
      rawKey,
      verdicts,
      queued: false,
    });
    // SES may deliver one mail twice at once: the delivery that stored it works it, and another only once the first
    // can no longer be working (then it crashed or failed; the mail sweeper would send it again too). Two working it
    // together would both answer.
    accepted.push({ mailId, work: !earlier || Date.parse(earlier.receivedAt) <= deps.now().getTime() - UNWORKED_AFTER_MS });
  }
  return accepted;
}
