import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import {
  FunctionUrlAuthType,
  HttpMethod as UrlMethod,
  InvokeMode,
  type FunctionUrl,
  type IFunction,
  type Function as PlatformLambda,
  type LayerVersion,
} from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { PlatformAlarms } from './alarms';
import { addMcpFunctionUrl, addMcpUrlOutput, serveOnDashboard, type McpAccessPointProps } from './mcp';
import { grantBedrockModel } from './bedrock-access';
import { grantSendMail } from './mail-access';
import { MailReceiving } from './mail-receiving';
import { EmbedSite, EMBED_PREFIX } from './embed-site';
import { DashboardSite } from './dashboard';
import { QUEUE_URL_ENV, type QueueName } from '@service/shared';
import { FUNCTIONS, type PlatformFunction, type Trigger } from './functions';
import { createNodeFunction } from './node-function';
import { existingRepoFile } from './repo-paths';
import { generatedSecret } from './secrets';
import { createLancedbLayer, LANCEDB_ARCHITECTURE } from './lancedb-layer';
import { SkillFunction } from './skill-function';
import { BUILTIN_SKILLS, SKILLS, type SkillEntry } from './skills';
import { PlatformTables } from './tables';
import { WorkQueue } from './work-queue';

export interface PlatformStackProps extends StackProps {
  /** Physical table name prefix, given to every function as TABLE_PREFIX. */
  tablePrefix: string;
  /** MODEL setting of the model-using functions (e.g. `bedrock:<model id>`); unset leaves the runtime's default. */
  model?: string;
  /** MODEL_PRICE of the functions that price the model's tokens (`<input>/<output>` US dollars per million, e.g. `3/15`). */
  modelPrice?: string;
  /** Defaults to FUNCTIONS. */
  functions?: readonly PlatformFunction[];
  /** Defaults to SKILLS. */
  skills?: readonly SkillEntry[];
  /** Maps a repository-relative entry to an absolute file, or undefined to skip it. Default: the file if it exists. */
  resolveEntry?: (entry: string) => string | undefined;
  /** The built widget. Default: embed/dist if it exists. */
  embedDistDir?: string | undefined;
  /** The MCP access point: its canonical URL (a custom domain) and browser origins; default: the Function URL itself. */
  mcp?: McpAccessPointProps;
  /** The built dashboard. Default: dashboard/dist if it exists. */
  dashboardDistDir?: string | undefined;
  /** Sender of the platform's e-mail (a verified SES identity), as MAIL_FROM. Default: the runtime's, which SES refuses. */
  mailFrom?: string;
  /** Domain of the agents' addresses (a verified SES domain), as AGENT_MAIL_DOMAIN. Default: the runtime's, which SES refuses. */
  agentMailDomain?: string;
  /** The dashboard's origin (https://…), as DASHBOARD_ORIGIN: sign-in links, CSRF origin checks, passkeys' relying party. */
  dashboardOrigin?: string;
  /** Subscribes this e-mail address to the alarm topic. Default: no subscription (subscribe to `AlarmTopicArn` yourself). */
  alarmEmail?: string;
}

/**
 * One JSON line per request. No header, query or body is logged: API keys travel in headers, and identifiers in the
 * query may be customers'.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    time: '$context.requestTime',
    ip: '$context.identity.sourceIp',
    method: '$context.httpMethod',
    path: '$context.path',
    route: '$context.routeKey',
    status: '$context.status',
    bytes: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

const API_METHODS = { ANY: HttpMethod.ANY, GET: HttpMethod.GET, POST: HttpMethod.POST, OPTIONS: HttpMethod.OPTIONS } as const;

/** The knowledge bucket's folders: the LanceDB index, and the files (originals and their text) of `files` sources. */
export const KNOWLEDGE_INDEX_PREFIX = 'index';
export const KNOWLEDGE_FILES_PREFIX = 'files';
/** Inbound mail's folder of the bucket (MAIL_BLOB_URI), and where SES receiving saves the raw mail within it. */
export const MAIL_PREFIX = 'mail';
export const SES_INBOUND_PREFIX = `${MAIL_PREFIX}/inbound/`;

/** The consumer's timeout sizes a queue's visibility timeout; the data list is the one place that knows it. */
function consumerTimeoutSeconds(functions: readonly PlatformFunction[], queue: QueueName): number {
  const consumer = functions.find((fn) => fn.trigger.kind === 'queue' && fn.trigger.queue === queue);
  if (!consumer) throw new Error(`No function in the list consumes the "${queue}" queue`);
  return consumer.timeoutSeconds;
}

/**
 * The platform in AWS: DynamoDB tables from the shared definitions, the three work queues, the knowledge bucket, one
 * Lambda per entry of the function list (HTTP API routes, queue consumers, schedules, streaming Function URLs), the
 * turn-token key, skills, and the widget's CDN.
 */
export class PlatformStack extends Stack {
  readonly tables: PlatformTables;
  readonly queues: Record<QueueName, WorkQueue>;
  readonly api: HttpApi;
  readonly turnTokenKey: Secret;
  /** Shared by the built-in skills; only the functions that call them can read it. */
  readonly builtinSkillBearer: Secret;
  /** Opens the administrative routes of the skill API. */
  readonly masterKey: Secret;
  /** Built-in skill code -> its MCP endpoint. */
  private readonly builtinSkillUrls: Record<string, string> = {};
  readonly functions = new Map<string, PlatformLambda>();
  readonly skills = new Map<string, SkillFunction>();
  readonly embed: EmbedSite;
  readonly dashboard: DashboardSite;
  readonly alarms: PlatformAlarms;
  /** The knowledge index (LanceDB, `index/`) and files (`files/`), and inbound mail (`mail/`). */
  readonly knowledgeBucket: Bucket;
  /** SES receiving on the agent mail domain; made when the deploy sets one and the InboundMail function exists. */
  readonly mailReceiving: MailReceiving | undefined;
  /** LanceDB for the functions that open the index; made only when one does. */
  private lancedbLayer: LayerVersion | undefined;
  /** Entries of the function and skill lists whose files do not exist yet, so they were left out. */
  readonly missingEntries: string[] = [];

  constructor(scope: Construct, id: string, props: PlatformStackProps) {
    super(scope, id, props);
    const functions = props.functions ?? FUNCTIONS;
    const resolveEntry = props.resolveEntry ?? existingRepoFile;

    this.tables = new PlatformTables(this, 'Tables', { prefix: props.tablePrefix });
    this.queues = {
      runs: new WorkQueue(this, 'RunsQueue', { consumerTimeoutSeconds: consumerTimeoutSeconds(functions, 'runs') }),
      webhooks: new WorkQueue(this, 'WebhookDeliveriesQueue', { consumerTimeoutSeconds: consumerTimeoutSeconds(functions, 'webhooks') }),
      // The crawl and sync of knowledge sources: one page per message.
      knowledge: new WorkQueue(this, 'KnowledgeQueue', { consumerTimeoutSeconds: consumerTimeoutSeconds(functions, 'knowledge') }),
      // Eval runs of agents' suites: one eval run per message, its scenarios played one after another.
      evals: new WorkQueue(this, 'EvalsQueue', { consumerTimeoutSeconds: consumerTimeoutSeconds(functions, 'evals') }),
      // Inbound e-mail: one mail per message (docs/email.md).
      mail: new WorkQueue(this, 'InboundMailQueue', { consumerTimeoutSeconds: consumerTimeoutSeconds(functions, 'mail') }),
    };
    this.knowledgeBucket = this.createKnowledgeBucket();
    this.turnTokenKey = generatedSecret(this, 'TurnTokenKey', 'HMAC-SHA256 key signing the turn tokens the platform sends to skills');
    this.api = this.createHttpApi();
    this.builtinSkillBearer = generatedSecret(this, 'BuiltinSkillBearer', 'Bearer the platform sends to its built-in skills');
    this.masterKey = generatedSecret(this, 'MasterKey', 'Master system key of the administrative routes (never sent to a skill)');

    // Built-in skills first: the functions that call them learn their URLs.
    for (const skill of BUILTIN_SKILLS) {
      const entry = resolveEntry(skill.entry);
      if (!entry) {
        this.missingEntries.push(skill.entry);
        continue;
      }
      const deployed = new SkillFunction(this, skill.id, {
        entry,
        turnTokenKey: this.turnTokenKey,
        bearer: this.builtinSkillBearer,
        environment: { SERVICE_API_URL: `${this.api.apiEndpoint}/en/api/v1` },
      });
      this.skills.set(skill.id, deployed);
      this.builtinSkillUrls[skill.code] = `${deployed.functionUrl.url}mcp`;
    }

    let chatUrl: FunctionUrl | undefined;
    let mcpUrl: FunctionUrl | undefined;
    let runStreamUrl: FunctionUrl | undefined;
    for (const definition of functions) {
      const entry = resolveEntry(definition.entry);
      if (!entry) {
        this.missingEntries.push(definition.entry);
        continue;
      }
      const fn = this.createPlatformFunction(definition, entry, props);
      this.functions.set(definition.id, fn);
      if (definition.id === 'Mcp') {
        mcpUrl = addMcpFunctionUrl(fn, props.mcp);
        continue;
      }
      const url = this.attachTrigger(definition.id, fn, definition.trigger);
      if (definition.id === 'RunStream') runStreamUrl = url;
      else if (url) chatUrl = url;
    }
    // The widget learns the chat endpoint from its configuration.
    if (chatUrl) this.functions.get('Widget')?.addEnvironment('CHAT_URL', chatUrl.url);
    this.mailReceiving =
      props.agentMailDomain && this.functions.has('InboundMail')
        ? new MailReceiving(this, 'MailReceiving', {
            domain: props.agentMailDomain,
            bucket: this.knowledgeBucket,
            objectKeyPrefix: SES_INBOUND_PREFIX,
            queue: this.queues.mail.queue,
          })
        : undefined;

    for (const skill of props.skills ?? SKILLS) {
      const entry = resolveEntry(skill.entry);
      if (!entry) {
        this.missingEntries.push(skill.entry);
        continue;
      }
      const deployed = new SkillFunction(this, skill.id, { entry, turnTokenKey: this.turnTokenKey });
      this.skills.set(skill.id, deployed);
      new CfnOutput(this, `${skill.id}SkillUrl`, { value: deployed.functionUrl.url, description: `Skill ${skill.id} (POST /mcp)` });
    }

    const embedDistDir = 'embedDistDir' in props ? props.embedDistDir : existingRepoFile('embed/dist');
    if (!embedDistDir) this.missingEntries.push('embed/dist');
    this.embed = new EmbedSite(this, 'Embed', {
      distDir: embedDistDir,
      apiDomain: `${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}`,
    });
    const dashboardDistDir = 'dashboardDistDir' in props ? props.dashboardDistDir : existingRepoFile('dashboard/dist');
    if (!dashboardDistDir) this.missingEntries.push('dashboard/dist');
    this.dashboard = new DashboardSite(this, 'Dashboard', {
      distDir: dashboardDistDir,
      apiDomain: `${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}`,
      embedBucket: this.embed.bucket,
      accessLogs: this.embed.accessLogs,
      // agents/command_stream on the dashboard's origin: the REST API's own route buffers, this one streams.
      ...(runStreamUrl ? { runStreamUrl } : {}),
    });
    // Sign-in (passkeys' expected origin, invitation and sign-in links) follows the dashboard's address: the
    // distribution's own unless a custom domain is given. The functions that are origins of that distribution cannot
    // be given its name (a dependency cycle): the MCP function learns it per request (serveOnDashboard), and the run
    // stream, a GET, has no origin to check.
    const originsOfTheDistribution = new Set(['Mcp', 'RunStream']);
    if (!props.dashboardOrigin) {
      for (const [id, fn] of this.functions)
        if (!originsOfTheDistribution.has(id)) fn.addEnvironment('DASHBOARD_ORIGIN', `https://${this.dashboard.distribution.distributionDomainName}`);
    }
    // The MCP access point on the dashboard's origin, where its consent page sees the session (docs/deploy.md).
    if (mcpUrl) {
      serveOnDashboard(this, this.functions.get('Mcp')!, mcpUrl, this.dashboard.distribution, props.dashboardOrigin);
      addMcpUrlOutput(this, this.dashboard.distribution, props.mcp);
    }

    this.alarms = new PlatformAlarms(this, 'Alarms', {
      functions: new Map<string, IFunction>([...this.functions, ...[...this.skills].map(([id, skill]): [string, IFunction] => [id, skill.function])]),
      deadLetterQueues: {
        Runs: this.queues.runs.deadLetterQueue,
        WebhookDeliveries: this.queues.webhooks.deadLetterQueue,
        Knowledge: this.queues.knowledge.deadLetterQueue,
        Evals: this.queues.evals.deadLetterQueue,
        InboundMail: this.queues.mail.deadLetterQueue,
      },
      webhookQueue: this.queues.webhooks.queue,
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
    });

    if (!props.mailFrom) {
      Annotations.of(this).addWarningV2(
        'service:mail-from-unset',
        'mailFrom is not set: sign-in codes and invitations go from no-reply@service.local, which SES refuses. Deploy with -c mailFrom="Name <address@your verified domain>"',
      );
    }
    if (!props.agentMailDomain) {
      Annotations.of(this).addWarningV2(
        'service:agent-mail-domain-unset',
        'agentMailDomain is not set: agents get addresses @agents.service.local, which SES refuses. Deploy with -c agentMailDomain=<your verified domain>',
      );
    }
    for (const missing of this.missingEntries) {
      Annotations.of(this).addWarningV2('service:missing-entry', `${missing} does not exist yet: left out of this synth`);
    }
    new CfnOutput(this, 'ApiUrl', { value: `${this.api.apiEndpoint}/en/api/v1`, description: 'REST API base URL (also /tr/api/v1)' });
    if (chatUrl) new CfnOutput(this, 'ChatUrl', { value: chatUrl.url, description: 'Chat endpoint of the widget (streaming Function URL)' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn, description: 'Operator alarms: subscribe to this SNS topic' });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://${this.dashboard.distribution.distributionDomainName}/dashboard/`,
      description: 'The dashboard: sign in with an e-mail code or a passkey',
    });
    new CfnOutput(this, 'EmbedUrl', {
      value: `https://${this.embed.distribution.distributionDomainName}/${EMBED_PREFIX}loader.js`,
      description: 'The one-line embed: <script src="..." data-agent-id="{uuid}" async>',
    });
  }

  /**
   * The HTTP API with access logs on its default stage. API Gateway authorizes nothing itself: every route's handler
   * authenticates (API key, turn token, master key) or is public by design (the widget configuration).
   */
  private createHttpApi(): HttpApi {
    const api = new HttpApi(this, 'HttpApi', { description: 'REST API, skill API and widget configuration', createDefaultStage: false });
    const accessLogs = new LogGroup(this, 'HttpApiAccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: ACCESS_LOG_FORMAT },
    });
    Validations.of(api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        "Authorization is the handlers' own: API keys (hashed, revocable at once, rate-limited), skill turn tokens and the master key; the widget configuration is public by design",
    });
    return api;
  }

  /**
   * Customer content: private (public access blocked, bucket-owner objects), encrypted, TLS only, retained on stack
   * deletion as the tables are. No access logs: only the platform's own roles touch it (CloudTrail data events can be
   * enabled per deploy), and every request of the index would be logged.
   */
  private createKnowledgeBucket(): Bucket {
    const bucket = new Bucket(this, 'KnowledgeBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      // A crashed writer's multipart upload leaves parts that are billed until aborted.
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        "Only the platform's own function roles read and write this bucket; logging every index read of every search would cost more than it tells (CloudTrail data events can be enabled per deploy)",
    });
    return bucket;
  }

  /**
   * The knowledge settings and S3 access of a function that opens the index: `search` reads the index (its objects,
   * and the listing of its folder, which LanceDB reads a table's versions from); `manage` also writes and deletes in
   * the index and the files, and aborts its multipart uploads. Named actions, no wildcard but the folder's objects.
   */
  private wireKnowledge(fn: PlatformLambda, access: 'search' | 'manage'): void {
    const bucket = this.knowledgeBucket;
    fn.addEnvironment('KNOWLEDGE_INDEX_URI', `s3://${bucket.bucketName}/${KNOWLEDGE_INDEX_PREFIX}`);
    fn.addEnvironment('KNOWLEDGE_BLOB_URI', `s3://${bucket.bucketName}/${KNOWLEDGE_FILES_PREFIX}`);
    const prefixes = access === 'search' ? [KNOWLEDGE_INDEX_PREFIX] : [KNOWLEDGE_INDEX_PREFIX, KNOWLEDGE_FILES_PREFIX];
    const objectActions = access === 'search' ? ['s3:GetObject'] : ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];
    fn.addToRolePolicy(new PolicyStatement({ actions: objectActions, resources: prefixes.map((prefix) => bucket.arnForObjects(`${prefix}/*`)) }));
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': prefixes.map((prefix) => `${prefix}/*`) } },
      }),
    );
    for (const prefix of prefixes) {
      Validations.of(fn.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${this.getLogicalId(bucket.node.defaultChild as CfnBucket)}.Arn>/${prefix}/*]`,
        reason: `The objects of the knowledge bucket's ${prefix}/ folder, whose keys the platform makes (LanceDB's files, the workspaces' documents)`,
      });
    }
  }

  /**
   * MAIL_BLOB_URI and the objects of the bucket's `mail/` folder: `receive` reads the raw mails (SES's S3 action's too)
   * and keeps attachments; `manage` reads them, lists a mail's folder and deletes it (erasure, retention).
   */
  private wireInboundMail(fn: PlatformLambda, access: 'receive' | 'manage'): void {
    const bucket = this.knowledgeBucket;
    fn.addEnvironment('MAIL_BLOB_URI', `s3://${bucket.bucketName}/${MAIL_PREFIX}`);
    const objectActions = access === 'receive' ? ['s3:GetObject', 's3:PutObject'] : ['s3:GetObject', 's3:DeleteObject'];
    fn.addToRolePolicy(new PolicyStatement({ actions: objectActions, resources: [bucket.arnForObjects(`${MAIL_PREFIX}/*`)] }));
    if (access === 'manage') {
      fn.addToRolePolicy(
        new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': [`${MAIL_PREFIX}/*`] } } }),
      );
    }
    Validations.of(fn.role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${this.getLogicalId(bucket.node.defaultChild as CfnBucket)}.Arn>/${MAIL_PREFIX}/*]`,
      reason: "The objects of the bucket's mail/ folder, whose keys SES (its message id) and the platform (mail and attachment ids) make",
    });
  }

  private createPlatformFunction(definition: PlatformFunction, entry: string, props: PlatformStackProps): PlatformLambda {
    const environment: Record<string, string> = { TABLE_PREFIX: props.tablePrefix };
    for (const queue of definition.sendsTo) environment[QUEUE_URL_ENV[queue]] = this.queues[queue].queue.queueUrl;
    if (definition.turnTokens) environment.TURN_TOKEN_SECRET_ARN = this.turnTokenKey.secretArn;
    if (definition.model && props.model) environment.MODEL = props.model;
    if (definition.pricesModel && props.modelPrice) environment.MODEL_PRICE = props.modelPrice;
    if (definition.builtinSkills) {
      environment.BUILTIN_SKILL_URLS = this.toJsonString(this.builtinSkillUrls);
      environment.SKILL_BEARER_SECRET_ARN = this.builtinSkillBearer.secretArn;
    }
    if (definition.masterKey) environment.MASTER_KEY_SECRET_ARN = this.masterKey.secretArn;
    if (definition.sendsMail && props.mailFrom) environment.MAIL_FROM = props.mailFrom;
    if (definition.sendsMail && props.agentMailDomain) environment.AGENT_MAIL_DOMAIN = props.agentMailDomain;
    if (props.dashboardOrigin) environment.DASHBOARD_ORIGIN = props.dashboardOrigin;

    const fn = createNodeFunction(this, definition.id, {
      entry,
      timeoutSeconds: definition.timeoutSeconds,
      memoryMb: definition.memoryMb,
      environment,
      ...(definition.model ? { model: props.model } : {}),
      ...(definition.knowledge ? { layers: [(this.lancedbLayer ??= createLancedbLayer(this, 'LancedbLayer'))], architecture: LANCEDB_ARCHITECTURE } : {}),
    });
    if (definition.knowledge) this.wireKnowledge(fn, definition.knowledge);
    if (definition.inboundMail) this.wireInboundMail(fn, definition.inboundMail);
    for (const table of definition.reads) this.tables.grantRead(table, fn);
    for (const table of definition.writes) this.tables.grantReadWrite(table, fn);
    for (const table of definition.appends ?? []) this.tables.grantAppend(table, fn);
    for (const queue of definition.sendsTo) this.queues[queue].queue.grantSendMessages(fn);
    if (definition.turnTokens) this.turnTokenKey.grantRead(fn);
    if (definition.builtinSkills) this.builtinSkillBearer.grantRead(fn);
    if (definition.masterKey) this.masterKey.grantRead(fn);
    if (definition.model) grantBedrockModel(fn, props.model);
    if (definition.sendsMail) grantSendMail(fn);
    return fn;
  }

  /** Wires the function to its trigger; returns the Function URL when the trigger is one. */
  private attachTrigger(id: string, fn: PlatformLambda, trigger: Trigger): FunctionUrl | undefined {
    switch (trigger.kind) {
      case 'http': {
        const integration = new HttpLambdaIntegration(`${id}Integration`, fn);
        for (const route of trigger.routes) {
          this.api.addRoutes({ path: route.path, methods: route.methods.map((method) => API_METHODS[method]), integration });
        }
        return undefined;
      }
      case 'queue':
        fn.addEventSource(new SqsEventSource(this.queues[trigger.queue].queue, { batchSize: trigger.batchSize, reportBatchItemFailures: true }));
        return undefined;
      case 'schedule':
        new Rule(this, `${id}Schedule`, { schedule: Schedule.rate(Duration.minutes(trigger.everyMinutes)), targets: [new LambdaFunction(fn)] });
        return undefined;
      case 'streaming-url':
        return fn.addFunctionUrl({
          authType: FunctionUrlAuthType.NONE,
          invokeMode: InvokeMode.RESPONSE_STREAM,
          // Any site may embed the widget; the handler checks the Origin against the agent's allowed origins.
          cors: {
            allowedOrigins: ['*'],
            allowedMethods: [UrlMethod.POST, UrlMethod.GET],
            allowedHeaders: ['content-type', 'accept', 'last-event-id'],
            maxAge: Duration.days(1),
          },
        });
    }
  }
}
