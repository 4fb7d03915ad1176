import { randomBase62 } from '@service/shared';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localMailbox, readMailbox, type DeliveredMail } from '../../infra/mail/local-mailbox';
import { ensureTables } from '../../infra/store/bootstrap';
import { createStore } from '../../infra/store/dynamo';
import { FULL_TEXT_INDEXES } from '../../infra/search/lance-index';
import { giveLanceSpareCpuThreads } from '../../infra/search/lance-threads';
import { startEmbeddedDynamo } from '../local/embedded-dynamo';
import type { DemoSeed } from '../local/seed';
import { startAwsServices } from './aws-services';
import { LOCAL_REGION, idOfArn, readSynthesizedStack, resourcesOfType } from './cloudformation';
import { seedStackDemo } from './demo-seed';
import { stackQueues, startSchedules } from './event-sources';
import { serveFrontDoors } from './front-doors';
import { listen, type RequestHandler } from './fronts';
import { Hosts, hostOf } from './hosts';
import { RolePolicies } from './iam';
import type { LambdaFunction } from './lambda-function';
import { startS3 } from './s3';
import { sesReceiving, type ReceivedMail } from './ses-receiving';
import { loadStackFunctions } from './stack-functions';
import { createStackTables } from './stack-tables';

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

/**
 * The deployed form of the platform on this machine: every Lambda of `cdk synth`'s template loaded from its asset as
 * the Node.js runtime loads it, in a sandbox of its own with the environment the template gives it, behind the routes,
 * Function URLs, distributions, queue mappings and schedules the template declares. AWS itself is emulated on
 * loopback: DynamoDB by dynalite, SQS, Secrets Manager and SES by aws-services.ts, S3 by s3.ts, each call held to the
 * caller's role; SES receiving, and SNS's delivery of its notification to the queues, by ses-receiving.ts. A
 * function's layers are resolvable from its bundle as /opt/nodejs/node_modules is in Lambda.
 * This function composes the parts and owns their lifecycle: what started is stopped, in reverse, even if a later part fails.
 */
export async function startBundledPlatform(options: BundledPlatformOptions): Promise<RunningBundledPlatform> {
  // The functions run in worker threads, whose environment never reaches LanceDB's native code: set on this thread.
  giveLanceSpareCpuThreads(FULL_TEXT_INDEXES);
  const stack = await readSynthesizedStack(options.cdkOut);
  const policies = new RolePolicies(stack);
  const dynamo = await startEmbeddedDynamo(options.dataDir);
  const servers: Server[] = [];
  let functions = new Map<string, LambdaFunction>();
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

    // Front doors first: the functions' environments name their addresses.
    const doors = await serveFrontDoors(stack, hosts, serve, fn);

    const queues = stackQueues(stack, emulatorStore);
    // SES gives every mail it sends a Message-ID of its own domain (infra/mail/ses.ts reads it back from SES's message id).
    const mailbox = localMailbox(emulatorStore, () => new Date(), { from: 'no-reply@service.local', domain: 'email.amazonses.com' });
    const secrets = new Map(
      resourcesOfType(stack, 'AWS::SecretsManager::Secret').map(([id]) => [
        `arn:aws:secretsmanager:${LOCAL_REGION}:000000000000:secret:${id}`,
        randomBase62(64),
      ]),
    );
    const aws = await startAwsServices({
      secrets,
      queue: queues.queue,
      queueIds: queues.queueIds,
      mail: mailbox,
      policies,
      ...(options.verifiedIdentities ? { verifiedIdentities: options.verifiedIdentities } : {}),
    });
    servers.push(aws.server);
    // SDK v3 sends an SQS call to the host of its QueueUrl.
    hosts.add(`sqs.${LOCAL_REGION}.amazonaws.com`, aws.endpoint);
    const s3 = await startS3({ buckets: new Set(resourcesOfType(stack, 'AWS::S3::Bucket').map(([id]) => id.toLowerCase())), root: s3Root, policies });
    servers.push(s3.server);

    functions = loadStackFunctions(stack, {
      cdkOut: options.cdkOut,
      hosts,
      endpoints: { dynamo: dynamo.endpoint, aws: aws.endpoint, s3: s3.endpoint },
      logs: options.logs ?? 'inherit',
    });
    doors.connectRoutes();
    queues.startConsumers(fn);
    stopped.push(() => queues.stop());
    const schedules = startSchedules(stack, fn);
    stopped.push(async () => schedules.stop());

    const demo = await seedStackDemo(doors.routes(), dynamo.endpoint, options.demoApiKey);

    const mail = await listen(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ mail: await readMailbox(emulatorStore) }));
    });
    servers.push(mail.server);

    return {
      outputs: Object.fromEntries(Object.entries(stack.outputs).map(([name, value]) => [name, hosts.localize(value)])),
      mailbox: () => readMailbox(emulatorStore),
      mailUrl: `${mail.origin}/dev/mail.json`,
      receiveMail: sesReceiving(stack, s3, queues.queue),
      demo,
      fireSchedules: () => schedules.fireAll(),
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
