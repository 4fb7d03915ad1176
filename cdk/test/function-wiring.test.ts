import { rmSync } from 'node:fs';
import { Stage } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { physicalTableName, QUEUE_URL_ENV, type QueueName } from '@service/shared';
import { FUNCTIONS, type PlatformFunction } from '../lib/functions';
import { PlatformStack } from '../lib/platform-stack';
import { DEPLOYED_TABLES } from '../lib/tables';
import { FIXTURE_EMBED_DIST, FIXTURE_HANDLER, actionsOn, logicalIdsWhere, roleStatements, testApp } from './support/synth';

/**
 * Every entry of the function list, planned or not, wired as the stack would wire it: each entry points at a
 * fixture handler, so this checks triggers, environment and grants for all of them whichever handler files exist
 * today. Bundling is the full-app test's job (platform-stack.test.ts).
 */
const PREFIX = 'wire-';
let stack: PlatformStack;
let template: Template;
// The template as JSON, indexed by logical id (CloudFormation's own loose shape).
let resources: ReturnType<Template['toJSON']>;

beforeAll(() => {
  stack = new PlatformStack(testApp({ full: false }), 'Wiring', {
    tablePrefix: PREFIX,
    model: 'bedrock:anthropic.claude-test',
    resolveEntry: () => FIXTURE_HANDLER,
    skills: [{ id: 'Hello', entry: 'skill-sdk/examples/hello/lambda.ts' }],
    embedDistDir: FIXTURE_EMBED_DIST,
  });
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
});
afterAll(() => rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true }));

const functionId = (id: string) => stack.getLogicalId(stack.functions.get(id)!.node.defaultChild as never);
const environmentOf = (id: string): Record<string, unknown> => resources[functionId(id)].Properties.Environment.Variables;
const queueId = (queue: QueueName) => stack.getLogicalId(stack.queues[queue].queue.node.defaultChild as never);
const tableId = (name: (typeof DEPLOYED_TABLES)[number]) =>
  logicalIdsWhere(template, 'AWS::DynamoDB::GlobalTable', (p) => p.TableName === physicalTableName(PREFIX, name))[0]!;

it('deploys every entry of the function list and reports nothing missing', () => {
  expect([...stack.functions.keys()]).toEqual(FUNCTIONS.map((fn) => fn.id));
  expect(stack.missingEntries).toEqual([]);
});

/** Whether an IAM action pattern of a statement (`dynamodb:*`, `dynamodb:Update*`, `*`) covers `action`. */
const covers = (pattern: string, action: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(action);

it('lets no function change or remove an audit entry: PutItem for those that record, Query for the reader, never UpdateItem or DeleteItem', () => {
  const auditTable = tableId('auditLog');
  const changes = ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:PartiQLUpdate', 'dynamodb:PartiQLDelete'];
  const recorders: string[] = [];
  for (const fn of FUNCTIONS) {
    const onAudit = roleStatements(template, stack, stack.functions.get(fn.id)!).filter(
      (statement) =>
        statement.Effect === 'Allow' && (JSON.stringify(statement.Resource).includes(`"${auditTable}"`) || JSON.stringify(statement.Resource) === '"*"'),
    );
    const actions = onAudit.flatMap((statement) => [statement.Action].flat());
    for (const change of changes)
      expect(
        actions.some((pattern) => covers(pattern, change)),
        `${fn.id} may ${change} on the audit log`,
      ).toBe(false);
    if (actions.some((pattern) => covers(pattern, 'dynamodb:PutItem'))) recorders.push(fn.id);
  }
  // The ones that record: every door a change comes through (REST, dashboard sign-in, MCP consent, the platform's sweeps).
  expect(recorders.sort()).toEqual(
    FUNCTIONS.filter((fn) => fn.appends?.includes('auditLog'))
      .map((fn) => fn.id)
      .sort(),
  );
  expect(recorders).toContain('Api');
});

describe.each(FUNCTIONS.map((fn) => [fn.id, fn] as [string, PlatformFunction]))('%s', (id, definition) => {
  const statements = () => roleStatements(template, stack, stack.functions.get(id)!);

  it('reaches exactly the tables of its entry: writes where listed, read-only where listed, nothing elsewhere', () => {
    for (const table of DEPLOYED_TABLES) {
      const actions = actionsOn(statements(), tableId(table));
      if (definition.writes.includes(table)) {
        expect(actions, table).toContain('dynamodb:PutItem');
      } else if (definition.appends?.includes(table)) {
        expect(actions, table).toContain('dynamodb:PutItem');
        for (const change of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) expect(actions, table).not.toContain(change);
        if (!definition.reads.includes(table)) expect(actions, table).not.toContain('dynamodb:Query');
      } else if (definition.reads.includes(table)) {
        expect(actions, table).toContain('dynamodb:GetItem');
        expect(actions, table).not.toContain('dynamodb:PutItem');
        expect(actions, table).not.toContain('dynamodb:DeleteItem');
      } else {
        expect([...actions], table).toEqual([]);
      }
    }
  });

  it('sends only to the queues of its entry, consumes only its trigger queue, and knows only those URLs', () => {
    for (const queue of ['runs', 'webhooks', 'knowledge'] as const) {
      const actions = actionsOn(statements(), queueId(queue));
      const consumes = definition.trigger.kind === 'queue' && definition.trigger.queue === queue;
      expect(actions.has('sqs:SendMessage'), `send ${queue}`).toBe(definition.sendsTo.includes(queue));
      expect(actions.has('sqs:ReceiveMessage'), `receive ${queue}`).toBe(consumes);
      expect(environmentOf(id)[QUEUE_URL_ENV[queue]], queue).toEqual(definition.sendsTo.includes(queue) ? { Ref: queueId(queue) } : undefined);
    }
  });

  it('gets the turn-token key ARN and read access to it only if its entry says so', () => {
    const keyId = stack.getLogicalId(stack.turnTokenKey.node.defaultChild as never);
    expect(environmentOf(id).TURN_TOKEN_SECRET_ARN).toEqual(definition.turnTokens ? { Ref: keyId } : undefined);
    expect(actionsOn(statements(), keyId).has('secretsmanager:GetSecretValue')).toBe(definition.turnTokens);
  });

  it('may invoke Bedrock models, and gets MODEL, only if its entry says so', () => {
    const bedrock = statements().filter((s) => [s.Action].flat().includes('bedrock:InvokeModel'));
    expect(bedrock.length > 0).toBe(definition.model);
    expect(environmentOf(id).MODEL).toBe(definition.model ? 'bedrock:anthropic.claude-test' : undefined);
  });

  it('has the timeout and memory of its entry on nodejs22.x', () => {
    expect(resources[functionId(id)].Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Timeout: definition.timeoutSeconds,
      MemorySize: definition.memoryMb,
    });
  });
});

describe('queue consumers', () => {
  it.each([
    ['Runner', 'runs', 5],
    ['WebhookDeliverer', 'webhooks', 10],
  ] as const)('%s consumes the %s queue in batches of %i with partial batch failures', (id, queue, batchSize) => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionId(id) },
      EventSourceArn: { 'Fn::GetAtt': [queueId(queue), 'Arn'] },
      BatchSize: batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(resources[queueId(queue)].Properties.VisibilityTimeout).toBe(6 * resources[functionId(id)].Properties.Timeout);
  });
});

describe('HTTP API routes', () => {
  it.each([
    ['ANY /{lang}/api/v1/{proxy+}', 'Api'],
    ['ANY /v1/agents', 'Api'],
    ['GET /v1/agents/{agentId}/widget-config', 'Widget'],
    ['OPTIONS /v1/agents/{agentId}/widget-config', 'Widget'],
    ['POST /{lang}/api/v1/admin/{proxy+}', 'SkillApi'],
    ['ANY /{lang}/api/v1/visitors/{proxy+}', 'ConversationsApi'],
  ])('%s goes to %s', (routeKey, id) => {
    const [route] = Object.values(template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } }));
    expect(route, routeKey).toBeDefined();
    const integrationId = (route!.Properties.Target['Fn::Join'][1] as unknown[]).map((part) => (part as { Ref?: string }).Ref).find(Boolean)!;
    expect(resources[integrationId].Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [functionId(id), 'Arn'] });
  });
});

describe('sweepers', () => {
  it.each(['RunSweeper', 'ConversationSweeper'])('%s runs every minute on an EventBridge schedule', (id) => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId(id), 'Arn'] } })],
    });
  });
});

describe('retention sweeper', () => {
  it('runs every hour on an EventBridge schedule, with the tables an erasure clears', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 hour)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId('RetentionSweeper'), 'Arn'] } })],
    });
    const writes = FUNCTIONS.find((fn) => fn.id === 'RetentionSweeper')!.writes;
    expect([...writes].sort()).toEqual([
      'conversations',
      'idempotency',
      'insights',
      'knowledgeUnanswered',
      'mail',
      'records',
      'visitorErasures',
      'webhookDeliveries',
    ]);
  });
});

describe('chat', () => {
  it('streams through a public Function URL with CORS', () => {
    template.hasResourceProperties('AWS::Lambda::Url', {
      TargetFunctionArn: { 'Fn::GetAtt': [functionId('Chat'), 'Arn'] },
      AuthType: 'NONE',
      InvokeMode: 'RESPONSE_STREAM',
      Cors: Match.objectLike({ AllowOrigins: ['*'], AllowMethods: Match.arrayWith(['POST']) }),
    });
  });

  it('outputs the chat URL and tells the widget configuration where it is', () => {
    const urlId = logicalIdsWhere(template, 'AWS::Lambda::Url', (p) => p.InvokeMode === 'RESPONSE_STREAM')[0]!;
    expect(template.toJSON().Outputs.ChatUrl.Value).toEqual({ 'Fn::GetAtt': [urlId, 'FunctionUrl'] });
    expect(environmentOf('Widget').CHAT_URL).toEqual({ 'Fn::GetAtt': [urlId, 'FunctionUrl'] });
  });
});

describe('skills and embed', () => {
  it('deploys the listed skills with a URL output', () => {
    expect(stack.skills.has('Hello')).toBe(true);
    expect(template.toJSON().Outputs.HelloSkillUrl).toBeDefined();
  });

  it('deploys hashed chunks with a one-year immutable cache and entry files with a short one, under embed/', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketKeyPrefix: 'embed/',
      Include: ['*-????????.js'],
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketKeyPrefix: 'embed/',
      Exclude: ['*-????????.js'],
      SystemMetadata: { 'cache-control': 'public, max-age=300' },
      DistributionPaths: ['/embed/*'],
    });
  });
});
