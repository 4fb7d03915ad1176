import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { ROUTES, randomBase62 } from '@service/shared';
import type { SQSBatchResponse } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../../infra/config/config';
import type { Deps } from '../../infra/deps';
import { localMailbox, readMailbox, type DeliveredMail } from '../../infra/mail/local-mailbox';
import { LocalQueue } from '../../infra/queue/local';
import type { QueueSender } from '../../infra/queue/queue';
import { createTableIfAbsent, ensureTables } from '../../infra/store/bootstrap';
import { createStore, type Store } from '../../infra/store/dynamo';
import { logger } from '../../infra/logger';
import { FULL_TEXT_INDEXES } from '../../infra/search/lance-index';
import { giveLanceSpareCpuThreads } from '../../infra/search/lance-threads';
import { startEmbeddedDynamo } from '../local/embedded-dynamo';
import { seedDemo, type DemoSeed } from '../local/seed';
import { accessKeyIdForRole, startAwsServices } from './aws-services';
import { LOCAL_REGION, idOfArn, readSynthesizedStack, resourcesOfType, type ResolvedStack } from './cloudformation';
import { distribution, functionUrl, httpApi, listen, type DistributionBehavior, type FunctionUrlCors, type HttpApiRoute, type RequestHandler } from './fronts';
import { RolePolicies } from './iam';
import { LambdaFunction } from './lambda-function';
import { startS3 } from './s3';
import { sesReceiving, type ReceivedMail } from './ses-receiving';

const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
/** The emulated AWS services keep their own state (queued messages, delivered mail) in tables of this prefix. */
const EMULATOR_PREFIX = 'bundled-emulator-';

export interface BundledPlatformOptions {
  /** A `cdk synth` output directory (see synth.ts). */
  cdkOut: string;
  /** Where dynalite keeps its files, and S3 its objects (`s3/`); omitted = in memory and a temporary folder. */
  dataDir?: string;
  /** SES's verified identities (domains or addresses); omitted = any sender is accepted. */
  verifiedIdentities?: string[];
  /** The demo API key to register (as SERVICE_DEMO_API_KEY does for the local platform). */
  demoApiKey?: string;
  /** Where the functions' log lines go; default this process's stdout and stderr. */
  logs?: 'inherit' | 'silent';
}

export interface RunningBundledPlatform {
  /** The stack's outputs (ApiUrl, ChatUrl, McpUrl, DashboardUrl, …) at their local addresses. */
  outputs: Record<string, string>;
  /** The local mailbox SES delivers to (also GET {mailUrl}). */
  mailbox(): Promise<DeliveredMail[]>;
  mailUrl: string;
  /** SES receiving a mail, as the template's receipt rules take it (ses-receiving.ts): SES's message id, undefined when no rule does. */
  receiveMail(mail: ReceivedMail): Promise<string | undefined>;
  demo: DemoSeed;
  /** Invokes every scheduled function once now, as its EventBridge rule would: each one's result by function id. */
  fireSchedules(): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** The seed writes records only. */
const NO_QUEUE: QueueSender = {
  send: async (queue) => {
    throw new Error(`The seed sends no message (asked to send to ${queue})`);
  },
};

const propertiesOf = <T>(resource: { Properties: Record<string, unknown> }) => resource.Properties as T;

/** Creates each DynamoDB table of the template as declared there (keys, indexes), so a missing index fails here as in AWS. */
async function createStackTables(store: Store, stack: ResolvedStack): Promise<void> {
  const tables = [...resourcesOfType(stack, 'AWS::DynamoDB::GlobalTable'), ...resourcesOfType(stack, 'AWS::DynamoDB::Table')];
  await Promise.all(
    tables.map(async ([, table]) => {
      const { TableName, KeySchema, AttributeDefinitions, GlobalSecondaryIndexes } = propertiesOf<CreateTableCommandInput>(table);
      const input: CreateTableCommandInput = {
        TableName,
        KeySchema,
        AttributeDefinitions,
        BillingMode: 'PAY_PER_REQUEST',
        ...(GlobalSecondaryIndexes?.length
          ? { GlobalSecondaryIndexes: GlobalSecondaryIndexes.map(({ IndexName, KeySchema: keys, Projection }) => ({ IndexName, KeySchema: keys, Projection })) }
          : {}),
      };
      await createTableIfAbsent(store.raw, input);
    }),
  );
}

/** The host names the template's resources have in AWS, each mapped to the loopback origin that stands for it. */
class Hosts {
  private readonly origins = new Map<string, string>();

  add(awsHost: string, origin: string): void {
    this.origins.set(awsHost, origin);
  }

  origin(awsHost: string): string {
    const origin = this.origins.get(awsHost);
    if (!origin) throw new Error(`${awsHost} is not a host of this stack`);
    return origin;
  }

  /**
   * A value with every AWS address replaced by its local one (TLS ends at the edge we cannot reach: http), and a host
   * pattern (`*.cloudfront.net`) by the local hosts of that kind, comma-separated.
   */
  localize(value: string): string {
    let localized = value.replace(/\*\.([a-z0-9.-]+)/g, (pattern: string, suffix: string) => {
      const matching = [...this.origins].filter(([host]) => host.endsWith(`.${suffix}`)).map(([, origin]) => origin.replace('http://', ''));
      return matching.length ? matching.join(',') : pattern;
    });
    for (const [host, origin] of this.origins) localized = localized.replaceAll(`https://${host}`, origin).replaceAll(host, origin.replace('http://', ''));
    return localized;
  }
}

const hostOf = (url: string) => new URL(url.includes('://') ? url : `https://${url}`).host;

interface FunctionProperties {
  Handler: string;
  Runtime: string;
  Timeout?: number;
  MemorySize?: number;
  Role: string;
  Environment?: { Variables?: Record<string, string> };
  Layers?: string[];
}

/**
 * The deployed form of the platform on this machine: every Lambda of `cdk synth`'s template loaded from its asset as
 * the Node.js runtime loads it, in a sandbox of its own with the environment the template gives it, behind the routes,
 * Function URLs, distributions, queue mappings and schedules the template declares. AWS itself is emulated on
 * loopback: DynamoDB by dynalite, SQS, Secrets Manager and SES by aws-services.ts, S3 by s3.ts, each call held to the
 * caller's role; SES receiving, and SNS's delivery of its notification to the queues, by ses-receiving.ts. A
 * function's layers are resolvable from its bundle as /opt/nodejs/node_modules is in Lambda.
 */
export async function startBundledPlatform(options: BundledPlatformOptions): Promise<RunningBundledPlatform> {
  // The functions run in worker threads, whose environment never reaches LanceDB's native code: set on this thread.
  giveLanceSpareCpuThreads(FULL_TEXT_INDEXES);
  const stack = await readSynthesizedStack(options.cdkOut);
  const policies = new RolePolicies(stack);
  const dynamo = await startEmbeddedDynamo(options.dataDir);
  const servers: Server[] = [];
  const functions = new Map<string, LambdaFunction>();
  const stopped: Array<() => Promise<void>> = [];
  const s3Root = options.dataDir ? join(options.dataDir, 's3') : mkdtempSync(join(tmpdir(), 'bundled-s3-'));
  if (!options.dataDir) stopped.push(async () => rmSync(s3Root, { recursive: true, force: true }));
  try {
    const emulatorStore = createStore({ tablePrefix: EMULATOR_PREFIX, region: LOCAL_REGION, endpoint: dynamo.endpoint });
    await ensureTables(emulatorStore.raw, EMULATOR_PREFIX);
    const stackStore = createStore({ tablePrefix: '', region: LOCAL_REGION, endpoint: dynamo.endpoint });
    await createStackTables(stackStore, stack);
    stackStore.raw.destroy();
    stopped.push(async () => emulatorStore.raw.destroy());

    const hosts = new Hosts();
    const fn = (arnOrId: unknown) => {
      const found = functions.get(idOfArn(arnOrId));
      if (!found) throw new Error(`${String(arnOrId)} is not a function of this stack`);
      return found;
    };
    const serve = async (awsUrl: string, handler: RequestHandler) => {
      const { server, origin } = await listen(handler);
      servers.push(server);
      hosts.add(hostOf(awsUrl), origin);
    };

    // Front doors first: the functions' environments name their addresses. They find their functions at request time.
    const routesOf = new Map<string, HttpApiRoute[]>();
    for (const [id] of resourcesOfType(stack, 'AWS::ApiGatewayV2::Api')) {
      const routes: HttpApiRoute[] = [];
      routesOf.set(id.toLowerCase(), routes);
      await serve(`https://${id.toLowerCase()}.execute-api.${LOCAL_REGION}.amazonaws.com`, httpApi(routes));
    }
    const integrations = new Map(resourcesOfType(stack, 'AWS::ApiGatewayV2::Integration').map(([id, integration]) => [id, integration.Properties]));
    const lazyRoutes: Array<() => void> = [];
    for (const [, route] of resourcesOfType(stack, 'AWS::ApiGatewayV2::Route')) {
      const { ApiId, RouteKey, Target } = propertiesOf<{ ApiId: string; RouteKey: string; Target: string }>(route);
      const [method, path] = RouteKey.split(' ') as [string, string];
      const integration = integrations.get(Target.replace('integrations/', ''));
      lazyRoutes.push(() => routesOf.get(ApiId)!.push({ method, path, fn: fn(integration?.IntegrationUri) }));
    }
    const urlOf = (id: string) => `https://${id.toLowerCase()}.lambda-url.${LOCAL_REGION}.on.aws/`;
    for (const [id, url] of resourcesOfType(stack, 'AWS::Lambda::Url')) {
      const { TargetFunctionArn, InvokeMode, Cors } = propertiesOf<{ TargetFunctionArn: string; InvokeMode?: 'BUFFERED' | 'RESPONSE_STREAM'; Cors?: FunctionUrlCors }>(url);
      let handler: RequestHandler | undefined;
      await serve(urlOf(id), (request, response) => (handler ??= functionUrl(fn(TargetFunctionArn), InvokeMode ?? 'BUFFERED', Cors))(request, response));
    }
    const distributions = resourcesOfType(stack, 'AWS::CloudFront::Distribution');
    const cloudFrontFunctions = new Map(resourcesOfType(stack, 'AWS::CloudFront::Function').map(([id, resource]) => [id, String(resource.Properties.FunctionCode)]));
    const behaviorsOf = new Map<string, DistributionBehavior[]>();
    for (const [id] of distributions) {
      const behaviors: DistributionBehavior[] = [];
      behaviorsOf.set(id, behaviors);
      await serve(`${id.toLowerCase()}.cloudfront.net`, distribution(behaviors));
    }
    for (const [id, resource] of distributions) behaviorsOf.get(id)!.push(...distributionBehaviors(resource.Properties, hosts, cloudFrontFunctions));

    const queueIds = new Set(resourcesOfType(stack, 'AWS::SQS::Queue').map(([id]) => id));
    // SES gives every mail it sends a Message-ID of its own domain (infra/mail/ses.ts reads it back from SES's message id).
    const mailbox = localMailbox(emulatorStore, () => new Date(), { from: 'no-reply@service.local', domain: 'email.amazonses.com' });
    const secrets = new Map(resourcesOfType(stack, 'AWS::SecretsManager::Secret').map(([id]) => [`arn:aws:secretsmanager:${LOCAL_REGION}:000000000000:secret:${id}`, randomBase62(64)]));
    const mappings = resourcesOfType(stack, 'AWS::Lambda::EventSourceMapping').map(([, mapping]) =>
      propertiesOf<{ EventSourceArn: string; FunctionName: string; BatchSize?: number; FunctionResponseTypes?: string[] }>(mapping),
    );
    const queue = new LocalQueue<string>(emulatorStore, {
      visibilityTimeoutMs: Object.fromEntries(resourcesOfType(stack, 'AWS::SQS::Queue').map(([id, q]) => [id, Number(q.Properties.VisibilityTimeout ?? 30) * 1000])),
      batchSize: Object.fromEntries(mappings.map((mapping) => [idOfArn(mapping.EventSourceArn), mapping.BatchSize ?? 10])),
    });
    const aws = await startAwsServices({ secrets, queue, queueIds, mail: mailbox, policies, ...(options.verifiedIdentities ? { verifiedIdentities: options.verifiedIdentities } : {}) });
    servers.push(aws.server);
    // SDK v3 sends an SQS call to the host of its QueueUrl.
    hosts.add(`sqs.${LOCAL_REGION}.amazonaws.com`, aws.endpoint);
    const s3 = await startS3({ buckets: new Set(resourcesOfType(stack, 'AWS::S3::Bucket').map(([id]) => id.toLowerCase())), root: s3Root, policies });
    servers.push(s3.server);
    // Where Lambda unpacks each layer (/opt): its asset folder here.
    const layerDirs = new Map(
      resourcesOfType(stack, 'AWS::Lambda::LayerVersion').flatMap(([id, layer]) => {
        const assetPath = layer.Metadata?.['aws:asset:path'];
        return typeof assetPath === 'string' ? [[id, join(options.cdkOut, assetPath)] as const] : [];
      }),
    );

    const sdkFrom = join(REPO_ROOT, 'package.json');
    for (const [id, resource] of resourcesOfType(stack, 'AWS::Lambda::Function')) {
      const properties = propertiesOf<FunctionProperties>(resource);
      const assetPath = resource.Metadata?.['aws:asset:path'];
      if (!properties.Runtime.startsWith('nodejs') || typeof assetPath !== 'string') continue;
      const environment: Record<string, string> = {
        ...Object.fromEntries(Object.entries(properties.Environment?.Variables ?? {}).map(([name, value]) => [name, hosts.localize(String(value))])),
        // What the Lambda runtime sets, and the way to the emulated AWS: the role's credentials and the endpoints.
        AWS_REGION: LOCAL_REGION,
        AWS_DEFAULT_REGION: LOCAL_REGION,
        AWS_LAMBDA_FUNCTION_NAME: id,
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(properties.MemorySize ?? 128),
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_EXECUTION_ENV: `AWS_Lambda_${properties.Runtime}`,
        LAMBDA_TASK_ROOT: join(options.cdkOut, assetPath),
        AWS_ACCESS_KEY_ID: accessKeyIdForRole(properties.Role),
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_SESSION_TOKEN: 'local',
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        AWS_ENDPOINT_URL_SQS: aws.endpoint,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.endpoint,
        AWS_ENDPOINT_URL_SESV2: aws.endpoint,
        AWS_ENDPOINT_URL_S3: s3.endpoint,
        // The internet is this machine here: webhooks and skills live on loopback.
        WEBHOOK_ALLOW_LOCAL: '1',
        PATH: process.env.PATH ?? '',
      };
      const layers = (properties.Layers ?? []).map((layer) => {
        const dir = layerDirs.get(idOfArn(layer));
        if (!dir) throw new Error(`${id}: layer ${layer} is not a layer asset of this stack`);
        return dir;
      });
      const spec = { id, assetDir: join(options.cdkOut, assetPath), handler: properties.Handler, timeoutSeconds: properties.Timeout ?? 3, memoryMb: properties.MemorySize ?? 128, layers };
      functions.set(id, new LambdaFunction(spec, environment, sdkFrom, options.logs ?? 'inherit'));
    }
    for (const route of lazyRoutes) route();

    for (const mapping of mappings) {
      const consumer = fn(mapping.FunctionName);
      queue.consume(idOfArn(mapping.EventSourceArn), async (event) => {
        const response = (await consumer.invoke(event)) as SQSBatchResponse | undefined;
        return mapping.FunctionResponseTypes?.includes('ReportBatchItemFailures') ? response : undefined;
      });
    }
    queue.start();
    stopped.push(() => queue.stop());

    const scheduled = resourcesOfType(stack, 'AWS::Events::Rule').flatMap(([, rule]) => {
      const { ScheduleExpression, Targets = [] } = propertiesOf<{ ScheduleExpression?: string; Targets?: { Arn: string }[] }>(rule);
      // CloudFormation writes a rate in its largest whole unit: `rate(5 minutes)`, `rate(1 hour)`.
      const every = /^rate\((\d+) (minute|hour)s?\)$/.exec(ScheduleExpression ?? '');
      return every ? Targets.map((target) => ({ fn: fn(target.Arn), everyMs: Number(every[1]) * (every[2] === 'hour' ? 3_600_000 : 60_000) })) : [];
    });
    const scheduledEvent = () => ({ version: '0', id: randomUUID(), 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString(), region: LOCAL_REGION, resources: [], detail: {} });
    for (const schedule of scheduled) {
      const timer = setInterval(() => void schedule.fn.invoke(scheduledEvent()).catch((error: unknown) => logger.error('scheduled function failed', { function: schedule.fn.spec.id, error })), schedule.everyMs);
      timer.unref();
      stopped.push(async () => clearInterval(timer));
    }

    // The demo seed writes what the REST API would write (agents get its settings: table prefix, mail domain).
    const restApi = [...routesOf.values()].flat().find((route) => route.path === ROUTES.restApi);
    if (!restApi) throw new Error(`The template routes nothing to ${ROUTES.restApi}`);
    const config = configFromEnv(restApi.fn.environment);
    const seedStore = createStore({ tablePrefix: config.tablePrefix, region: LOCAL_REGION, endpoint: dynamo.endpoint });
    const seedDeps: Deps = { store: seedStore, queue: NO_QUEUE, config, now: () => new Date() };
    const demo = await seedDemo(seedDeps, options.demoApiKey);
    seedStore.raw.destroy();

    const mail = await listen(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ mail: await readMailbox(emulatorStore) }));
    });
    servers.push(mail.server);

    return {
      outputs: Object.fromEntries(Object.entries(stack.outputs).map(([name, value]) => [name, hosts.localize(value)])),
      mailbox: () => readMailbox(emulatorStore),
      mailUrl: `${mail.origin}/dev/mail.json`,
      receiveMail: sesReceiving(stack, s3, queue),
      demo,
      fireSchedules: async () => Object.fromEntries(await Promise.all(scheduled.map(async (schedule) => [schedule.fn.spec.id, await schedule.fn.invoke(scheduledEvent())] as const))),
      stop: () => shutdown(),
    };
  } catch (error) {
    await shutdown();
    throw error;
  }

  async function shutdown(): Promise<void> {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise<void>((done) => server.close(() => done()))));
    for (const stop of stopped.reverse()) await stop();
    await Promise.all([...functions.values()].map((candidate) => candidate.stop()));
    await dynamo.stop();
  }
}

interface CfnBehavior {
  PathPattern?: string;
  TargetOriginId: string;
  FunctionAssociations?: { EventType: string; FunctionARN: string }[];
}
interface CfnOrigin {
  Id: string;
  DomainName: string;
  S3OriginConfig?: unknown;
  OriginCustomHeaders?: { HeaderName: string; HeaderValue: string }[];
}

/** A distribution's behaviours in CloudFront's order (the ordered ones first, the default last), with their origins. */
function distributionBehaviors(properties: Record<string, unknown>, hosts: Hosts, functionCode: Map<string, string>): DistributionBehavior[] {
  const config = properties.DistributionConfig as { CacheBehaviors?: CfnBehavior[]; DefaultCacheBehavior: CfnBehavior; Origins: CfnOrigin[] };
  const origins = new Map(config.Origins.map((origin) => [origin.Id, origin]));
  return [...(config.CacheBehaviors ?? []), config.DefaultCacheBehavior].map((behavior) => {
    const origin = origins.get(behavior.TargetOriginId)!;
    const viewerRequest = behavior.FunctionAssociations?.find((association) => association.EventType === 'viewer-request');
    const code = viewerRequest ? functionCode.get(idOfArn(viewerRequest.FunctionARN)) : undefined;
    return {
      ...(behavior.PathPattern ? { pathPattern: behavior.PathPattern } : {}),
      origin: origin.S3OriginConfig
        ? { kind: 's3' as const }
        : {
            kind: 'http' as const,
            target: hosts.origin(hostOf(origin.DomainName)),
            customHeaders: Object.fromEntries((origin.OriginCustomHeaders ?? []).map((header) => [header.HeaderName.toLowerCase(), hosts.localize(header.HeaderValue)])),
          },
      ...(code ? { viewerRequest: code } : {}),
    };
  });
}
