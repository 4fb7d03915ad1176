import { rmSync } from 'node:fs';
import { Stage } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECEIVE_COUNT } from '../lib/work-queue';
import { PlatformStack, SES_INBOUND_PREFIX } from '../lib/platform-stack';
import { FIXTURE_EMBED_DIST, FIXTURE_HANDLER, actionsOf, roleStatements, testApp } from './support/synth';

/** Platform e-mail (sign-in codes, invitations, the agents' mail) through Amazon SES, and the dashboard's origin. */
describe('mail and dashboard settings of the functions', () => {
  let stack: PlatformStack;
  let template: Template;
  beforeAll(() => {
    stack = new PlatformStack(testApp({ full: false }), 'Mail', {
      tablePrefix: 'mail-',
      resolveEntry: () => FIXTURE_HANDLER,
      embedDistDir: FIXTURE_EMBED_DIST,
      mailFrom: 'Service <no-reply@acme.example>',
      agentMailDomain: 'agents.acme.example',
      dashboardOrigin: 'https://dashboard.acme.example',
    });
    template = Template.fromStack(stack);
  });
  afterAll(() => rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true }));

  const environmentOf = (id: string) =>
    (
      template.toJSON().Resources[stack.getLogicalId(stack.functions.get(id)!.node.defaultChild as never)] as {
        Properties: { Environment: { Variables: Record<string, unknown> } };
      }
    ).Properties.Environment.Variables;
  const maySendMail = (id: string) =>
    roleStatements(template, stack, stack.functions.get(id)!).some((statement) => [statement.Action].flat().includes('ses:SendEmail'));

  it('the functions that mail get MAIL_FROM, AGENT_MAIL_DOMAIN and ses:SendEmail; the others none of them', () => {
    // ConversationsApi: a teammate's reply to a visitor who left an e-mail address when nobody was available.
    for (const id of ['Api', 'SkillApi', 'AuthApi', 'ConversationsApi']) {
      expect(environmentOf(id)).toMatchObject({
        MAIL_FROM: 'Service <no-reply@acme.example>',
        AGENT_MAIL_DOMAIN: 'agents.acme.example',
        DASHBOARD_ORIGIN: 'https://dashboard.acme.example',
      });
      expect(maySendMail(id)).toBe(true);
    }
    for (const id of ['Runner', 'Widget', 'ConversationSweeper']) {
      expect(environmentOf(id)).not.toHaveProperty('MAIL_FROM');
      expect(environmentOf(id)).not.toHaveProperty('AGENT_MAIL_DOMAIN');
      expect(maySendMail(id)).toBe(false);
    }
  });

  it('synthesizes without a mail warning when both senders are set', () => {
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('mailFrom|agentMailDomain'))).toEqual([]);
  });

  describe('SES receiving on the agent mail domain (docs/email.md)', () => {
    const id = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as never);
    const bucket = () => ({ Ref: id(stack.knowledgeBucket) });
    const topic = () => ({ Ref: id(stack.mailReceiving!.topic) });
    const mailQueueArn = () => ({ 'Fn::GetAtt': [id(stack.queues.mail.queue), 'Arn'] });

    it('has one rule set whose rule scans every mail to the domain, saves it under the prefix and notifies the topic', () => {
      template.resourceCountIs('AWS::SES::ReceiptRuleSet', 1);
      template.resourceCountIs('AWS::SES::ReceiptRule', 1);
      template.hasResourceProperties('AWS::SES::ReceiptRule', {
        RuleSetName: { Ref: id(stack.mailReceiving!.ruleSet) },
        Rule: {
          Enabled: true,
          Recipients: ['agents.acme.example'],
          ScanEnabled: true,
          Actions: [{ S3Action: { BucketName: bucket(), ObjectKeyPrefix: SES_INBOUND_PREFIX, TopicArn: topic() } }],
        },
      });
      // The rule set's name, for the activation step of docs/deploy.md.
      expect(template.toJSON().Outputs.InboundMailRuleSet.Value).toEqual({ Ref: id(stack.mailReceiving!.ruleSet) });
    });

    it('lets SES of this account write only under the prefix, and use the key of the encrypted topic', () => {
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: bucket(),
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Allow',
              Principal: { Service: 'ses.amazonaws.com' },
              Action: 's3:PutObject',
              Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
              Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [id(stack.knowledgeBucket), 'Arn'] }, `/${SES_INBOUND_PREFIX}*`]] },
            }),
          ]),
        },
      });
      template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue(), DisplayName: 'Inbound mail received by SES' });
      template.hasResourceProperties('AWS::KMS::Key', {
        Description: 'Encrypts the inbound mail notifications',
        KeyPolicy: {
          Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'ses.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey'] })]),
        },
      });
    });

    it('delivers the notification, in its SNS envelope, to the mail queue, which only that topic may send to', () => {
      const subscriptions = Object.values(template.findResources('AWS::SNS::Subscription', { Properties: { TopicArn: topic() } }));
      expect(subscriptions.map((subscription) => subscription.Properties)).toEqual([expect.objectContaining({ Protocol: 'sqs', Endpoint: mailQueueArn() })]);
      // Raw delivery would hand the entry SES's JSON bare; it reads SNS's envelope (ses-receipt.ts).
      expect(subscriptions[0]!.Properties.RawMessageDelivery).toBe(false);
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id(stack.queues.mail.queue) }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Allow',
              Principal: { Service: 'sns.amazonaws.com' },
              Action: 'sqs:SendMessage',
              Condition: { ArnEquals: { 'aws:SourceArn': topic() } },
            }),
          ]),
        },
      });
    });

    it('has InboundMail work that queue with partial retries, a dead-letter queue and an alarm on it', () => {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: mailQueueArn(),
        FunctionName: { Ref: id(stack.functions.get('InboundMail')!) },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      template.hasResourceProperties('AWS::SQS::Queue', {
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [id(stack.queues.mail.deadLetterQueue), 'Arn'] }, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id(stack.queues.mail.deadLetterQueue), 'QueueName'] } }],
        Threshold: 0,
      });
    });

    it('gives the mail folder to InboundMail to read and keep, to the functions that download and erase to read, list and delete, and to no other', () => {
      const MAIL_ACCESS: Record<string, string[]> = {
        InboundMail: ['s3:GetObject', 's3:PutObject'],
        ConversationsApi: ['s3:DeleteObject', 's3:GetObject', 's3:ListBucket'],
        RetentionSweeper: ['s3:DeleteObject', 's3:GetObject', 's3:ListBucket'],
      };
      for (const [name, fn] of stack.functions) {
        const onMail = roleStatements(template, stack, fn).filter((statement) => JSON.stringify(statement).includes('mail/*'));
        if (!MAIL_ACCESS[name]) {
          expect(environmentOf(name), name).not.toHaveProperty('MAIL_BLOB_URI');
          expect(onMail, name).toEqual([]);
          continue;
        }
        expect(environmentOf(name).MAIL_BLOB_URI, name).toEqual({ 'Fn::Join': ['', ['s3://', bucket(), '/mail']] });
        expect(onMail.flatMap(actionsOf).sort(), name).toEqual(MAIL_ACCESS[name]);
      }
    });
  });
});

describe('a deploy without the mail settings', () => {
  it('warns at synth that SES will refuse the default senders, naming the context to set', () => {
    const stack = new PlatformStack(testApp({ full: false }), 'NoMail', {
      tablePrefix: 'nomail-',
      resolveEntry: () => FIXTURE_HANDLER,
      embedDistDir: FIXTURE_EMBED_DIST,
    });
    try {
      const annotations = Annotations.fromStack(stack);
      annotations.hasWarning('*', Match.stringLikeRegexp('-c mailFrom='));
      annotations.hasWarning('*', Match.stringLikeRegexp('-c agentMailDomain='));
      // No domain, nothing to receive on.
      Template.fromStack(stack).resourceCountIs('AWS::SES::ReceiptRuleSet', 0);
    } finally {
      rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true });
    }
  });
});
