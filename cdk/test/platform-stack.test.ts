import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TABLES, physicalTableName, type TableDefinition } from '@service/shared';
import { FUNCTIONS } from '../lib/functions';
import { REPO_ROOT } from '../lib/repo-paths';
import { PlatformStack } from '../lib/platform-stack';
import { DEPLOYED_TABLES } from '../lib/tables';
import { LAMBDA_UNZIPPED_LIMIT_BYTES, LAYER_NODE_MODULES } from '../lib/lancedb-layer';
import { SYNTH_CONTEXT, SYNTH_STACK, synthesized } from '../../test/setup/cdk-synth';
import { actionsOn, logicalIdsWhere, roleStatements, testApp } from './support/synth';

/** The bytes of a folder's files, as Lambda counts a deployment package unzipped. */
const folderBytes = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);

/**
 * The app as `npx cdk synth` builds it: the bundled tier's one synth (test/setup/cdk-synth.ts), the real handler
 * files that exist today bundled by the local esbuild, read from its cloud assembly. The same stack built here
 * without bundling names its constructs (logical ids are paths in the construct tree, whatever the bundling).
 */
const PREFIX = 'service-';
const assemblyDir = inject('cdkOut');
const stack = new PlatformStack(testApp({ full: false }), SYNTH_STACK, { tablePrefix: PREFIX, ...SYNTH_CONTEXT });
let template: Template;
// Long: the tier's synth bundles every function, beside the other tiers' tests.
beforeAll(async () => {
  await synthesized(assemblyDir);
  template = Template.fromJSON(JSON.parse(readFileSync(join(assemblyDir, `${SYNTH_STACK}.template.json`), 'utf8')) as Record<string, unknown>);
}, 900_000);

/** A copy of a bundle with the repository's node_modules beside it (standing in for the runtime's AWS SDK), the shared assembly left as synthesized. */
function runnableBundle(fn: IFunction): string {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-'));
  cpSync(join(assemblyDir, `asset.${assetHashOf(fn)}`), dir, { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  copies.push(dir);
  return dir;
}
const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** The asset of a function's code, named by its hash in the cloud assembly. */
const assetHashOf = (fn: IFunction): string =>
  (template.toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as never)].Properties.Code.S3Key as string).replace(/\.zip$/, '');

const tableId = (name: (typeof DEPLOYED_TABLES)[number]) =>
  logicalIdsWhere(template, 'AWS::DynamoDB::GlobalTable', (p) => p.TableName === physicalTableName(PREFIX, name))[0]!;

describe('DynamoDB tables', () => {
  it('creates every shared table except local-only ones, and nothing else', () => {
    const names = Object.values(template.findResources('AWS::DynamoDB::GlobalTable')).map((t) => t.Properties.TableName as string);
    expect(names.sort()).toEqual(DEPLOYED_TABLES.map((name) => physicalTableName(PREFIX, name)).sort());
    expect(names).not.toContain(physicalTableName(PREFIX, 'localQueue'));
  });

  it.each(DEPLOYED_TABLES)('%s: keys, on-demand, PITR, AWS-managed encryption, TTL and GSIs as defined', (name) => {
    const definition: TableDefinition = TABLES[name];
    const keySchema = [{ AttributeName: definition.partitionKey.name, KeyType: 'HASH' }];
    if (definition.sortKey) keySchema.push({ AttributeName: definition.sortKey.name, KeyType: 'RANGE' });
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        TableName: physicalTableName(PREFIX, name),
        KeySchema: keySchema,
        BillingMode: 'PAY_PER_REQUEST',
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
        Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
        TimeToLiveSpecification: definition.ttlAttribute ? { AttributeName: definition.ttlAttribute, Enabled: true } : Match.absent(),
        GlobalSecondaryIndexes: definition.indexes
          ? definition.indexes.map((index) =>
              Match.objectLike({
                IndexName: index.name,
                KeySchema: [
                  { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
                  ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : []),
                ],
                Projection: { ProjectionType: 'ALL' },
              }),
            )
          : Match.absent(),
      }),
    });
  });
});

describe('queues', () => {
  it('has the runs, webhook-deliveries, knowledge, evals and inbound mail queues, each with an encrypted dead-letter queue after 5 receives', () => {
    const withDlq = template.findResources('AWS::SQS::Queue', { Properties: { RedrivePolicy: Match.anyValue() } });
    expect(Object.keys(withDlq)).toHaveLength(5);
    for (const queue of Object.values(withDlq)) {
      expect(queue.Properties.RedrivePolicy.maxReceiveCount).toBe(5);
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
      const dlqId = queue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string;
      expect(template.toJSON().Resources[dlqId].Properties.SqsManagedSseEnabled).toBe(true);
    }
    expect(Object.keys(template.findResources('AWS::SQS::Queue'))).toHaveLength(10);
  });

  it('gives each queue a visibility timeout larger than the timeout of the function consuming it', () => {
    const resources = template.toJSON().Resources;
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    const deployedConsumers = FUNCTIONS.filter((fn) => fn.trigger.kind === 'queue' && stack.functions.has(fn.id));
    expect(mappings).toHaveLength(deployedConsumers.length);
    for (const mapping of mappings) {
      const queueId = mapping.Properties.EventSourceArn['Fn::GetAtt'][0] as string;
      const functionId = mapping.Properties.FunctionName.Ref as string;
      expect(resources[queueId].Properties.VisibilityTimeout).toBeGreaterThan(resources[functionId].Properties.Timeout);
      expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    }
  });
});

describe('functions', () => {
  it('deploys the REST API and skips only handler files that do not exist', () => {
    expect(stack.functions.has('Api')).toBe(true);
    for (const missing of stack.missingEntries) expect(existsSync(join(import.meta.dirname, '../..', missing))).toBe(false);
  });

  it("runs every platform function on nodejs22.x arm64 (x86_64 where LanceDB's x64 module is loaded), without Node options that slow its cold start", () => {
    for (const [id, fn] of stack.functions) {
      const resource = template.toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as never)];
      expect(resource.Properties.Runtime).toBe('nodejs22.x');
      expect(resource.Properties.Architectures, id).toEqual([FUNCTIONS.find((definition) => definition.id === id)!.knowledge ? 'x86_64' : 'arm64']);
      // Source maps ship beside each bundle but are not enabled: --enable-source-maps parses the whole map at load.
      expect(resource.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
      expect(resource.Properties.Environment.Variables.TABLE_PREFIX).toBe(PREFIX);
    }
  });

  it('bundles the API into a loadable ES module that answers on Node 22', async () => {
    // The bundle leaves the AWS SDK to the runtime (LAMBDA_BUNDLING.external); here the repository's stands in for it.
    const bundleDir = runnableBundle(stack.functions.get('Api')!);
    expect(existsSync(join(bundleDir, 'index.mjs.map'))).toBe(true);
    // A child process: the bundle runs as Lambda would run it, outside vitest's module system.
    const script = `
      const { handler } = await import(${JSON.stringify(join(bundleDir, 'index.mjs'))});
      const event = (path) => ({ version: '2.0', rawPath: path, rawQueryString: '', headers: { host: 'api.test' },
        requestContext: { http: { method: 'GET', path }, requestId: 'r1' }, isBase64Encoded: false });
      const doc = await handler(event('/en/api/v1/openapi.json'), {});
      const noKey = await handler(event('/en/api/v1/agents/list'), {});
      console.log(JSON.stringify({ doc: { status: doc.statusCode, openapi: JSON.parse(doc.body).openapi }, noKey: { status: noKey.statusCode, code: JSON.parse(noKey.body).error.code } }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, TABLE_PREFIX: PREFIX, AWS_REGION: 'eu-west-1' },
    });
    const answers = JSON.parse(stdout.trim().split('\n').at(-1)!) as { doc: { status: number; openapi: string }; noKey: { status: number; code: string } };
    expect(answers.doc).toEqual({ status: 200, openapi: expect.stringMatching(/^3\.0\./) });
    expect(answers.noKey).toEqual({ status: 401, code: 'API_KEY_REQUIRED' });
  });

  it('bundles the runner and the chat for the MODEL they are deployed with (none: the offline model), and they start on Node 22', async () => {
    // The Lambda runtime's global for streaming handlers (the chat), which a plain Node process lacks.
    const runtimeGlobal = 'globalThis.awslambda = { streamifyResponse: (handler) => handler, HttpResponseStream: { from: (stream) => stream } };';
    const start = async (bundleDir: string, model: string) => {
      const script = `${runtimeGlobal} try { const { handler } = await import(${JSON.stringify(join(bundleDir, 'index.mjs'))}); console.log(typeof handler); } catch (error) { console.log(error.message); }`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
        env: { PATH: process.env.PATH, TABLE_PREFIX: PREFIX, AWS_REGION: 'eu-west-1', MODEL: model },
      });
      return stdout.trim().split('\n').at(-1);
    };
    // Deployed without MODEL: a cold start resolves the built-in offline model; neither hosted provider is in the
    // bundle (a bedrock: deploy's bundle carries Bedrock alone: bundle-stand-ins.test.ts).
    const started = await Promise.all(
      ['Runner', 'Chat'].map(async (id) => {
        const bundleDir = runnableBundle(stack.functions.get(id)!);
        return Promise.all(['offline', 'bedrock:anthropic.claude-test', 'openai:http://model.test/v1#m'].map((model) => start(bundleDir, model)));
      }),
    );
    for (const [offline, bedrock, openai] of started) {
      expect(offline).toBe('function');
      expect(bedrock).toMatch(/Amazon Bedrock model provider is not in this Lambda bundle/);
      expect(openai).toMatch(/OpenAI-compatible model provider is not in this Lambda bundle/);
    }
  }, 120_000);

  it('routes ANY /{lang}/api/v1/{proxy+} of the HTTP API to the API function', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'ANY /{lang}/api/v1/{proxy+}' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      IntegrationUri: { 'Fn::GetAtt': [stack.getLogicalId(stack.functions.get('Api')!.node.defaultChild as never), 'Arn'] },
      PayloadFormatVersion: '2.0',
    });
  });
});

describe('least privilege of the API function', () => {
  const statementsOfApi = () => roleStatements(template, stack, stack.functions.get('Api')!);

  it('writes the tables it stores to, including their indexes', () => {
    const onAgents = actionsOn(statementsOfApi(), tableId('agents'));
    expect(onAgents).toContain('dynamodb:PutItem');
    expect(onAgents).toContain('dynamodb:UpdateItem');
    expect(onAgents).toContain('dynamodb:Query');
    const agentResources = statementsOfApi()
      .flatMap((s) => [s.Resource].flat())
      .map((r) => JSON.stringify(r));
    // Each index by name, never `index/*` (the knowledge bucket's `index/*` is the LanceDB index's folder).
    const knowledgeBucketId = stack.getLogicalId(stack.knowledgeBucket.node.defaultChild as never);
    expect(agentResources.some((r) => r.includes(tableId('agents')) && r.includes('/index/byId'))).toBe(true);
    expect(agentResources.some((r) => r.includes('/index/*') && !r.includes(knowledgeBucketId))).toBe(false);
  });

  it('only reads the workspaces table and cannot touch the conversations table', () => {
    const onWorkspaces = actionsOn(statementsOfApi(), tableId('workspaces'));
    expect(onWorkspaces).toContain('dynamodb:GetItem');
    expect(onWorkspaces).not.toContain('dynamodb:PutItem');
    expect(actionsOn(statementsOfApi(), tableId('conversations')).size).toBe(0);
  });

  it('may send to the queues it feeds but never receive from them, and cannot reach the dead-letter queues', () => {
    for (const queue of [stack.queues.runs, stack.queues.webhooks, stack.queues.knowledge]) {
      const queueId = stack.getLogicalId(queue.queue.node.defaultChild as never);
      const actions = actionsOn(statementsOfApi(), queueId);
      expect(actions).toContain('sqs:SendMessage');
      expect(actions).not.toContain('sqs:ReceiveMessage');
      expect(actions).not.toContain('sqs:DeleteMessage');
      expect(actionsOn(statementsOfApi(), stack.getLogicalId(queue.deadLetterQueue.node.defaultChild as never)).size).toBe(0);
    }
    const env = template.toJSON().Resources[stack.getLogicalId(stack.functions.get('Api')!.node.defaultChild as never)].Properties.Environment.Variables;
    expect(env.RUNS_QUEUE_URL).toEqual({ Ref: stack.getLogicalId(stack.queues.runs.queue.node.defaultChild as never) });
  });
});

const environmentOf = (id: string): Record<string, unknown> =>
  template.toJSON().Resources[stack.getLogicalId(stack.functions.get(id)!.node.defaultChild as never)].Properties.Environment.Variables;

describe('secrets', () => {
  it('generates the turn-token key in Secrets Manager and hands functions only its ARN', () => {
    const keyId = stack.getLogicalId(stack.turnTokenKey.node.defaultChild as never);
    template.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 64 }) });
    const env = environmentOf('Runner');
    expect(env.TURN_TOKEN_SECRET_ARN).toEqual({ Ref: keyId });
    expect(actionsOn(roleStatements(template, stack, stack.functions.get('Runner')!), keyId)).toContain('secretsmanager:GetSecretValue');
  });

  it('gives the built-in skills’ bearer and URLs only to the runner and the widget chat (visitor skills), and the master key only to the skill API', () => {
    const bearerId = stack.getLogicalId(stack.builtinSkillBearer.node.defaultChild as never);
    const masterId = stack.getLogicalId(stack.masterKey.node.defaultChild as never);
    for (const runsSkills of ['Runner', 'Chat']) {
      expect(environmentOf(runsSkills).SKILL_BEARER_SECRET_ARN).toEqual({ Ref: bearerId });
      expect(JSON.stringify(environmentOf(runsSkills).BUILTIN_SKILL_URLS)).toMatch(/contacts.*calendar.*tasks.*email/);
    }
    expect(environmentOf('SkillApi').MASTER_KEY_SECRET_ARN).toEqual({ Ref: masterId });
    expect(environmentOf('Chat').MASTER_KEY_SECRET_ARN).toBeUndefined();
    for (const other of ['Api', 'WebhookDeliverer', 'Widget', 'WidgetHistory']) {
      const env = environmentOf(other);
      expect(env.SKILL_BEARER_SECRET_ARN).toBeUndefined();
      expect(env.MASTER_KEY_SECRET_ARN).toBeUndefined();
      expect([...actionsOn(roleStatements(template, stack, stack.functions.get(other)!), masterId)]).toEqual([]);
    }
    for (const code of ['Contacts', 'Calendar', 'Tasks', 'Email']) expect(stack.skills.get(`Builtin${code}`)!.bearer).toBe(stack.builtinSkillBearer);
  });

  it('puts no secret value into any environment variable', () => {
    const environments = Object.values(template.findResources('AWS::Lambda::Function')).map((fn) => JSON.stringify(fn.Properties.Environment ?? {}));
    for (const environment of environments) expect(environment).not.toMatch(/resolve:secretsmanager|SecretString|sk_live_/);
  });
});

it('passes the built-in CloudFormation validation of the synth', () => {
  const reportFile = join(assemblyDir, 'validation-report.json');
  const reports = existsSync(reportFile)
    ? (JSON.parse(readFileSync(reportFile, 'utf8')) as { pluginReports: { pluginName?: string; violations: { ruleName: string }[] }[] }).pluginReports
    : [];
  const violations = reports.flatMap((report) => report.violations).filter((violation) => !violation.ruleName.startsWith('Annotation::'));
  expect(violations).toEqual([]);
});

describe('knowledge', () => {
  const resources = () => template.toJSON().Resources;
  const functionResource = (id: string) => resources()[stack.getLogicalId(stack.functions.get(id)!.node.defaultChild as never)];
  const bucketId = () => stack.getLogicalId(stack.knowledgeBucket.node.defaultChild as never);
  const layerId = () => Object.keys(template.findResources('AWS::Lambda::LayerVersion'))[0]!;
  const layerDir = () => join(assemblyDir, `asset.${(resources()[layerId()].Properties.Content.S3Key as string).replace(/\.zip$/, '')}`);
  const indexFunctions = FUNCTIONS.filter((definition) => definition.knowledge).map((definition) => definition.id);

  it('keeps the knowledge bucket private, encrypted, TLS-only and retained', () => {
    const bucket = resources()[bucketId()];
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId() },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('consumes the knowledge queue with the consumer, and runs the schedule every 5 minutes', () => {
    const mapping = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).find(
      (candidate) => candidate.Properties.FunctionName.Ref === stack.getLogicalId(stack.functions.get('KnowledgeConsumer')!.node.defaultChild as never),
    );
    expect(mapping?.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [stack.getLogicalId(stack.queues.knowledge.queue.node.defaultChild as never), 'Arn'] });
    const rule = Object.values(template.findResources('AWS::Events::Rule')).find((candidate) =>
      JSON.stringify(candidate.Properties.Targets).includes(stack.getLogicalId(stack.functions.get('KnowledgeSchedule')!.node.defaultChild as never)),
    );
    expect(rule?.Properties.ScheduleExpression).toBe('rate(5 minutes)');
  });

  it.each(indexFunctions)('%s: the LanceDB layer, the index and files on the bucket, S3 access by what it does there', (id) => {
    const fn = functionResource(id);
    expect(fn.Properties.Layers).toEqual([{ Ref: layerId() }]);
    expect(JSON.stringify(fn.Properties.Environment.Variables.KNOWLEDGE_INDEX_URI)).toContain(bucketId());
    const statements = roleStatements(template, stack, stack.functions.get(id)!);
    const onIndex = statements.filter((statement) => JSON.stringify(statement.Resource).includes('/index/*')).flatMap((statement) => [statement.Action].flat());
    const onFiles = statements.filter((statement) => JSON.stringify(statement.Resource).includes('/files/*')).flatMap((statement) => [statement.Action].flat());
    expect(actionsOn(statements, bucketId())).toContain('s3:ListBucket');
    if (FUNCTIONS.find((definition) => definition.id === id)!.knowledge === 'search') {
      expect(onIndex).toEqual(['s3:GetObject']);
      expect(onFiles).toEqual([]);
    } else {
      for (const actions of [onIndex, onFiles]) expect(actions.sort()).toEqual(['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    }
  });

  it('gives no other function the layer, the bucket or its settings', () => {
    for (const [id, fn] of stack.functions) {
      if (indexFunctions.includes(id)) continue;
      expect(functionResource(id).Properties.Layers, id).toBeUndefined();
      expect(functionResource(id).Properties.Environment.Variables.KNOWLEDGE_INDEX_URI, id).toBeUndefined();
      // The bucket's mail/ folder is inbound mail's, not knowledge's (mail-wiring.test.ts says who may touch it).
      const beyondMail = roleStatements(template, stack, fn).filter((statement) => !JSON.stringify(statement).includes('mail/*'));
      expect(actionsOn(beyondMail, bucketId()).size, id).toBe(0);
    }
  });

  it("ships LanceDB's Linux x64 module in the layer, within Lambda's 250 MB unzipped limit with each function's bundle", () => {
    expect(existsSync(join(layerDir(), LAYER_NODE_MODULES, '@lancedb/lancedb-linux-x64-gnu/lancedb.linux-x64-gnu.node'))).toBe(true);
    const layerBytes = folderBytes(layerDir());
    for (const id of indexFunctions) {
      const total = layerBytes + folderBytes(join(assemblyDir, `asset.${assetHashOf(stack.functions.get(id)!)}`));
      expect(total, id).toBeLessThan(LAMBDA_UNZIPPED_LIMIT_BYTES);
    }
  });
});

describe('widget embed', () => {
  it('keeps the bucket private, TLS-only, and reachable only through CloudFront origin access control', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    // The widget CDN's, and the dashboard's two (its own bucket, and the widget bucket under /embed/ on its origin).
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 3);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }),
        CacheBehaviors: [Match.objectLike({ PathPattern: '/v1/*' })],
      }),
    });
  });

  it('outputs the API, embed and (when the chat handler exists) chat URLs', () => {
    const outputs = template.toJSON().Outputs as Record<string, unknown>;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'EmbedUrl']));
    expect(JSON.stringify(outputs.EmbedUrl)).toContain('/embed/loader.js');
    expect('ChatUrl' in outputs).toBe(stack.functions.has('Chat'));
  });
});
