import { CfnOutput, Stack } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { ReceiptRuleSet } from 'aws-cdk-lib/aws-ses';
import { S3 } from 'aws-cdk-lib/aws-ses-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface MailReceivingProps {
  /** The agent mail domain: every recipient @ it is received (the InboundMail function drops those no agent has). */
  domain: string;
  /** Where SES's S3 action saves the raw mail, under `objectKeyPrefix`. */
  bucket: IBucket;
  objectKeyPrefix: string;
  /** The `mail` work queue: the S3 action's notification reaches it through the topic. */
  queue: IQueue;
}

/**
 * SES receiving on the agent mail domain (docs/email.md): a receipt rule set whose one rule scans the mail for spam
 * and viruses (the verdicts InboundMail reads), saves the raw MIME to the bucket and notifies a topic, which SNS
 * delivers, wrapped in its envelope, to the `mail` queue. A rule set receives nothing until it is the account's
 * active one: CloudFormation cannot make it so, and doing it here would replace whatever rule set the account
 * (region) has active, so it is a deploy step (docs/deploy.md) naming the `InboundMailRuleSet` output.
 */
export class MailReceiving extends Construct {
  readonly ruleSet: ReceiptRuleSet;
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: MailReceivingProps) {
    super(scope, id);
    const key = new Key(this, 'TopicKey', { enableKeyRotation: true, description: 'Encrypts the inbound mail notifications' });
    // SES publishes to the encrypted topic of its own account: it needs the key, on behalf of this account only.
    key.grant(
      new ServicePrincipal('ses.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } } }),
      'kms:Decrypt',
      'kms:GenerateDataKey',
    );
    this.topic = new Topic(this, 'Topic', { displayName: 'Inbound mail received by SES', masterKey: key, enforceSSL: true });
    // Not raw: the InboundMail entry reads SNS's envelope (ses-receipt.ts), as every SNS-to-SQS delivery carries it.
    this.topic.addSubscription(new SqsSubscription(props.queue, { rawMessageDelivery: false }));
    this.ruleSet = new ReceiptRuleSet(this, 'RuleSet', {
      rules: [
        {
          recipients: [props.domain],
          scanEnabled: true,
          actions: [new S3({ bucket: props.bucket, objectKeyPrefix: props.objectKeyPrefix, topic: this.topic })],
        },
      ],
    });
    new CfnOutput(Stack.of(this), 'InboundMailRuleSet', {
      value: this.ruleSet.receiptRuleSetName,
      description: 'Activate once to receive mail: aws ses set-active-receipt-rule-set --rule-set-name <this>',
    });
  }
}
