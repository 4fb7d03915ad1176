import { rmSync } from 'node:fs';
import { Stage } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_BACKLOG_SECONDS } from '../lib/alarms';
import { FUNCTIONS } from '../lib/functions';
import { PlatformStack } from '../lib/platform-stack';
import { FIXTURE_EMBED_DIST, FIXTURE_HANDLER, testApp } from './support/synth';

/** What an operator hears about: every planned function and skill deployed (fixture handlers), one alarm topic. */
let stack: PlatformStack;
let template: Template;

beforeAll(() => {
  stack = new PlatformStack(testApp({ full: false }), 'Ops', {
    tablePrefix: 'ops-',
    resolveEntry: () => FIXTURE_HANDLER,
    embedDistDir: FIXTURE_EMBED_DIST,
    alarmEmail: 'ops@example.com',
  });
  template = Template.fromStack(stack);
});
afterAll(() => rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true }));

const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as never);
const topicRef = () => ({ Ref: logicalId(stack.alarms.topic) });

/** The alarms on one metric of one resource (by the dimension naming it). */
function alarmsOn(namespace: string, metricName: string, dimension: string, value: unknown): { Properties: Record<string, unknown> }[] {
  const found = template.findResources('AWS::CloudWatch::Alarm', {
    Properties: { Namespace: namespace, MetricName: metricName, Dimensions: [{ Name: dimension, Value: value }] },
  });
  return Object.values(found) as { Properties: Record<string, unknown> }[];
}

describe('alarm topic', () => {
  it('is one SNS topic, encrypted with a rotating key CloudWatch may use, TLS only, with the operator’s e-mail subscribed', () => {
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey'] })]),
      },
    });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: topicRef() });
    expect(template.toJSON().Outputs.AlarmTopicArn.Value).toEqual(topicRef());
  });

  it('sends every alarm, and nothing else, to that topic', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([topicRef()]);
  });
});

describe('alarms', () => {
  it.each(['runs', 'webhooks', 'mail'] as const)('fires as soon as the %s dead-letter queue holds a message', (queue) => {
    const dlq = stack.queues[queue].deadLetterQueue;
    const found = alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName', { 'Fn::GetAtt': [logicalId(dlq), 'QueueName'] });
    expect(found).toHaveLength(1);
    expect(found[0]!.Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1, Statistic: 'Maximum' });
  });

  it('watches the errors and throttles of every platform function and every skill', () => {
    const watched = [...FUNCTIONS.map((fn) => stack.functions.get(fn.id)!), ...[...stack.skills.values()].map((skill) => skill.function)];
    expect(watched.length).toBe(FUNCTIONS.length + stack.skills.size);
    for (const fn of watched) {
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarmsOn('AWS/Lambda', metric, 'FunctionName', { Ref: logicalId(fn) });
        expect(found, `${fn.node.path} ${metric}`).toHaveLength(1);
        expect(found[0]!.Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', Statistic: 'Sum' });
      }
    }
  });

  it('fires when the oldest webhook delivery has waited longer than two SQS delay hops', () => {
    const queue = { 'Fn::GetAtt': [logicalId(stack.queues.webhooks.queue), 'QueueName'] };
    const found = alarmsOn('AWS/SQS', 'ApproximateAgeOfOldestMessage', 'QueueName', queue);
    expect(found).toHaveLength(1);
    expect(found[0]!.Properties).toMatchObject({ Threshold: WEBHOOK_BACKLOG_SECONDS, ComparisonOperator: 'GreaterThanThreshold' });
    expect(WEBHOOK_BACKLOG_SECONDS).toBe(2 * 900);
  });
});

describe('API access logs', () => {
  it('writes one JSON line per request of the default stage to a log group, without headers or query', () => {
    const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'));
    expect(stage!.Properties).toMatchObject({ StageName: '$default', AutoDeploy: true });
    const settings = stage!.Properties.AccessLogSettings as { DestinationArn: { 'Fn::GetAtt': [string, string] }; Format: string };
    expect(template.toJSON().Resources[settings.DestinationArn['Fn::GetAtt'][0]].Type).toBe('AWS::Logs::LogGroup');
    const fields = JSON.parse(settings.Format) as Record<string, string>;
    expect(fields).toMatchObject({ requestId: '$context.requestId', status: '$context.status', route: '$context.routeKey' });
    expect(settings.Format).not.toMatch(/header|querystring|body/i);
  });
});

describe('without an alarm e-mail', () => {
  it('creates the topic with no subscription', () => {
    const bare = new PlatformStack(testApp({ full: false }), 'Bare', { tablePrefix: 'bare-', resolveEntry: () => undefined, embedDistDir: undefined });
    const bareTemplate = Template.fromStack(bare);
    bareTemplate.resourceCountIs('AWS::SNS::Topic', 1);
    bareTemplate.resourceCountIs('AWS::SNS::Subscription', 0);
    rmSync(Stage.of(bare)!.outdir, { recursive: true, force: true });
  });
});
