import { randomBytes, randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { LocalQueue } from '../../infra/queue/local';
import { idOfArn, LOCAL_ACCOUNT, LOCAL_REGION, resourcesOfType, type ResolvedStack } from './cloudformation';
import { bucketPolicyAllowsService } from './iam';
import type { RunningS3 } from './s3';

/** A mail as SES receives it: the envelope, the raw MIME, and the verdicts its checks and scan give (PASS unless said). */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Uint8Array;
  verdicts?: Partial<Record<'spf' | 'dkim' | 'dmarc' | 'spam' | 'virus', 'PASS' | 'FAIL' | 'GRAY' | 'PROCESSING_FAILED'>>;
  /** How often SES delivers the notification (it delivers at least once). Default 1. */
  deliveries?: number;
}

const S3ActionSchema = z.object({ BucketName: z.string(), ObjectKeyPrefix: z.string().default(''), TopicArn: z.string().optional() });
const RuleSchema = z.object({
  Rule: z.object({
    Enabled: z.boolean().default(false),
    Recipients: z.array(z.string()).default([]),
    ScanEnabled: z.boolean().default(false),
    Actions: z.array(z.object({ S3Action: S3ActionSchema.optional() })).default([]),
  }),
});
const SubscriptionSchema = z.object({ Protocol: z.string(), TopicArn: z.string(), Endpoint: z.string(), RawMessageDelivery: z.boolean().default(false) });

/** SES's matching: an address, a domain (every address @ it) or `.domain` (its subdomains). */
const recipientMatches = (rule: string, address: string) => {
  const [wanted, domain] = [rule.toLowerCase(), address.toLowerCase().split('@')[1] ?? ''];
  return address.toLowerCase() === wanted || domain === wanted || (wanted.startsWith('.') && domain.endsWith(wanted));
};

/**
 * SES receiving as the template declares it, with SNS's delivery after it: a mail to a recipient of an enabled
 * receipt rule is saved by the rule's S3 action (only if the bucket's policy lets SES write there) under its prefix,
 * and the action's notification (`notificationType: Received`) published to its topic, which hands each SQS
 * subscription SNS's envelope (or, subscribed raw, the notification itself). The S3 action is the one the platform
 * uses; a rule's other actions are not emulated. SES's message id, or undefined when no rule takes the mail.
 */
export function sesReceiving(
  stack: ResolvedStack,
  s3: Pick<RunningS3, 'putAsService'>,
  queue: LocalQueue<string>,
): (mail: ReceivedMail) => Promise<string | undefined> {
  const rules = resourcesOfType(stack, 'AWS::SES::ReceiptRule').map(([, resource]) => RuleSchema.parse(resource.Properties).Rule);
  const subscriptions = resourcesOfType(stack, 'AWS::SNS::Subscription').map(([, resource]) => SubscriptionSchema.parse(resource.Properties));
  return async (mail) => {
    const rule = rules.find(
      (candidate) => candidate.Enabled && mail.to.some((to) => candidate.Recipients.some((recipient) => recipientMatches(recipient, to))),
    );
    const action = rule?.Actions.find((candidate) => candidate.S3Action)?.S3Action;
    if (!rule || !action) return undefined;
    const messageId = randomBytes(20).toString('hex');
    const objectKey = `${action.ObjectKeyPrefix}${messageId}`;
    if (!bucketPolicyAllowsService(stack, action.BucketName, 'ses.amazonaws.com', 's3:PutObject', `arn:aws:s3:::${action.BucketName}/${objectKey}`)) {
      throw new Error(`SES may not write ${objectKey} to the bucket ${action.BucketName} (its bucket policy)`);
    }
    s3.putAsService(action.BucketName, objectKey, mail.raw, 'application/octet-stream');
    if (!action.TopicArn) return messageId;
    const now = new Date().toISOString();
    const verdict = (name: keyof NonNullable<ReceivedMail['verdicts']>) => ({ status: mail.verdicts?.[name] ?? 'PASS' });
    const notification = {
      notificationType: 'Received',
      mail: { timestamp: now, source: mail.from, messageId, destination: mail.to, headersTruncated: false },
      receipt: {
        timestamp: now,
        processingTimeMillis: 1,
        recipients: mail.to.filter((to) => rule.Recipients.some((recipient) => recipientMatches(recipient, to))),
        ...(rule.ScanEnabled ? { spamVerdict: verdict('spam'), virusVerdict: verdict('virus') } : {}),
        spfVerdict: verdict('spf'),
        dkimVerdict: verdict('dkim'),
        dmarcVerdict: verdict('dmarc'),
        action: { type: 'S3', topicArn: action.TopicArn, bucketName: action.BucketName, objectKeyPrefix: action.ObjectKeyPrefix, objectKey },
      },
    };
    const message = JSON.stringify(notification);
    for (let delivery = 0; delivery < (mail.deliveries ?? 1); delivery += 1) {
      for (const subscription of subscriptions.filter((candidate) => candidate.Protocol === 'sqs' && candidate.TopicArn === action.TopicArn)) {
        const envelope = {
          Type: 'Notification',
          MessageId: randomUUID(),
          TopicArn: `arn:aws:sns:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${action.TopicArn}`,
          Subject: 'Amazon SES Email Receipt Notification',
          Message: message,
          Timestamp: now,
          SignatureVersion: '1',
        };
        await queue.sendSerialized(idOfArn(subscription.Endpoint), subscription.RawMessageDelivery ? message : JSON.stringify(envelope));
      }
    }
    return messageId;
  };
}
