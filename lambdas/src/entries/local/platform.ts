import { flushTraces } from '../../domains/telemetry/tracing';
import type { LanguageModel } from 'ai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUEUE_BATCH_SIZE } from '@service/shared';
import { configFromEnv } from '../../infra/config/config';
import type { Deps } from '../../infra/deps';
import { LocalQueue, type LocalQueueOptions } from '../../infra/queue/local';
import { ensureTables } from '../../infra/store/bootstrap';
import { createStore } from '../../infra/store/dynamo';
import { localMailbox, type DeliveredMail } from '../../infra/mail/local-mailbox';
import { resolveModel } from '../../infra/model';
import { startEmbeddedDynamo } from './embedded-dynamo';
import { attachConsumers } from './consumers';
import { createLocalFunctions } from './functions';
import { seedDemo, type DemoSeed } from './seed';
import { seedDemoKnowledge } from './demo-knowledge';
import { skillHostFromEnv, type SkillHost } from '../../infra/config/skill-host';
import { startBuiltinSkills } from './builtin-skills';
import { sweepRuns } from '../../domains/runs/runtime/run-sweeper';
import { sweepEvalRuns } from '../../domains/evals/eval-sweeper';
import { sweepMails } from '../../domains/mail/mail-sweeper';
import { syncDueSources } from '../../domains/knowledge/schedule';
import { sweepUnclaimed } from '../../domains/conversations/nobody-available';
import { sweepRetention } from '../../domains/visitors/retention-sweeper';
import { lazyKnowledgeStores, localKnowledgeLocations } from '../../infra/search/knowledge-stores';
import { rm } from 'node:fs/promises';
import { createLocalServer, type InFlight } from './server';
import { listenError } from './startup-error';
import { logger } from '../../infra/logger';
import { observeFunctions, observeSender, type PlatformObserver } from './observer';
import { localBlobStore } from '../../infra/blob/local-blob-store';
import { join } from 'node:path';
import { startSmtp } from './smtp';

export interface PlatformOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Where the embedded store keeps its files; omitted = in memory (tests). */
  dataDir?: string;
  /**
   * A DynamoDB endpoint to use instead of starting the embedded store (DynamoDB Local, or dynalite in a process of
   * its own, as the benchmarks run it); `dataDir` then does not apply.
   */
  dynamoEndpoint?: string;
  /** Settings as the environment would give them (PORT, MODEL, WEBHOOK_RETRY_SCALE, …). */
  env?: Record<string, string | undefined>;
  /** Overrides the MODEL setting, e.g. with the AI SDK's mock model in a test. */
  model?: LanguageModel;
  /** The platform's clock (records, rate-limit windows); tests pin it to make windows deterministic. */
  now?: () => Date;
  /** Told of every mail the local mailbox receives (`npm start` prints them). */
  onMail?: (mail: DeliveredMail) => void;
  /** Queue timing, e.g. a short visibility timeout so a test sees retries quickly. */
  queue?: LocalQueueOptions;
  /** Told of each function invocation and queue message (the cost bench); omitted, nothing is wrapped. */
  observer?: PlatformObserver;
  /**
   * Index the demo page as the demo workspace's first knowledge source (`npm start` does). Off by default: a test
   * that does not ask for it pays neither the indexing nor the language detector's load (about a second of CPU).
   */
  demoKnowledge?: boolean;
  /** The inbound SMTP port on the same host (`npm start`: SMTP_PORT, 2525); 0, the default, picks a free one. */
  smtpPort?: number;
  /** The DNS resolver of inbound mail's SPF/DKIM/DMARC checks (tests: an offline one); the system's when omitted. */
  mailResolver?: (name: string, rrtype: string) => Promise<string[] | string[][]>;
}

export interface RunningPlatform {
  url: string;
  apiBaseUrl: string;
  demo: DemoSeed & { agentId: string };
  deps: Deps;
  queue: LocalQueue;
  /** Where the platform takes inbound SMTP (loopback). */
  smtpPort: number;
  /** The built-in skills' endpoints and the platform's skill secrets for this start (never printed). */
  skillHost: SkillHost;
  stop(): Promise<void>;
}

const SWEEP_INTERVAL_MS = 30_000;
const KNOWLEDGE_TICK_MS = 30_000;
const CONVERSATION_SWEEP_MS = 30_000;
/** How often the local platform sweeps for conversations past their retention (AWS: hourly); RETENTION_SWEEP_MS overrides. */
const RETENTION_SWEEP_MS = 10 * 60_000;
const LOOPBACK_V4 = new Set(['127.0.0.1', 'localhost']);

/** The same platform on [::1]:port too, when this machine has IPv6 loopback (else nothing: IPv4 alone serves). */
async function listenOnIpv6Loopback(server: Server, port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '::1', () => resolve(server));
  });
}

/** The whole platform in one process: embedded DynamoDB, the durable local queue and its consumers, and one HTTP server. */
/** The longest the platform's stop waits for handlers still at work. */
const STOP_DRAIN_MS = 10_000;

export async function startPlatform(options: PlatformOptions = {}): Promise<RunningPlatform> {
  // The knowledge index and files live under the data dir (a temporary folder for an in-memory platform).
  const knowledgeFolders = localKnowledgeLocations(options.dataDir);
  const env: Record<string, string | undefined> = {
    KNOWLEDGE_INDEX_URI: knowledgeFolders.KNOWLEDGE_INDEX_URI,
    KNOWLEDGE_BLOB_URI: knowledgeFolders.KNOWLEDGE_BLOB_URI,
    ...process.env,
    ...options.env,
  };
  const dynamo = options.dynamoEndpoint ? { endpoint: options.dynamoEndpoint, stop: async () => undefined } : await startEmbeddedDynamo(options.dataDir);
  const config = { ...configFromEnv(env), dynamoEndpoint: dynamo.endpoint };
  const store = createStore({ tablePrefix: config.tablePrefix, region: config.region, endpoint: dynamo.endpoint });
  await ensureTables(store.raw, config.tablePrefix);
  // Messages come in the batches the stack's event source mappings give the runner and the deliverer.
  const queue = new LocalQueue(store, {
    batchSize: QUEUE_BATCH_SIZE,
    ...options.queue,
    visibilityTimeoutMs: { runs: 60_000, webhooks: 30_000, ...options.queue?.visibilityTimeoutMs },
  });
  const now = options.now ?? (() => new Date());
  // The built-in skills start once the server listens (below); until then the settings of this process describe the skill host.
  let skillHost: SkillHost | undefined;
  const openKnowledge = lazyKnowledgeStores(config);
  let knowledgeOpened = false;
  const knowledge = openKnowledge && (() => ((knowledgeOpened = true), openKnowledge()));
  const deps: Deps = {
    store,
    queue: observeSender(queue, options.observer),
    ...(knowledge ? { knowledge } : {}),
    config,
    now,
    // Inbound mail's raw MIME and attachments: beside the knowledge files.
    inboundMail: {
      blobs: localBlobStore(env.MAIL_BLOB_URI ?? join(knowledgeFolders.KNOWLEDGE_BLOB_URI, '..', '..', 'mail')),
      ...(options.mailResolver ? { resolver: options.mailResolver } : {}),
    },
    mail: localMailbox(store, now, { from: config.mailFrom, domain: config.agentMailDomain }, options.onMail),
    skillHost: () => (skillHost ??= skillHostFromEnv(process.env)),
  };
  const seed = await seedDemo(deps, env.SERVICE_DEMO_API_KEY);
  const model = options.model ?? resolveModel(config.model, env);

  const functions = () => observeFunctions(createLocalFunctions(deps, { model }), options.observer);
  const inFlight: InFlight = new Set();
  const server: Server = createLocalServer(functions(), inFlight);
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (error) {
    store.raw.destroy();
    await dynamo.stop();
    throw listenError(error, host, options.port ?? 0);
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  // Browsers resolve `localhost` themselves, some to ::1 first; the dashboard must work there (WebAuthn refuses IP addresses).
  const ipv6 = LOOPBACK_V4.has(host) ? await listenOnIpv6Loopback(createLocalServer(functions(), inFlight), port) : undefined;
  // The demo page is indexed under the address it is served from, known now. The platform starts without it if it
  // cannot be indexed (its agents then say they do not know): the demo content is no reason to refuse to start.
  if (options.demoKnowledge)
    await seedDemoKnowledge(deps, seed.workspaceId, url).catch((error: unknown) => logger.warn('the demo page was not indexed as knowledge', { error }));
  // The built-in skills call back into this server, so they start once it listens, and runs start after them.
  const skills = await startBuiltinSkills(`${url}/en/api/v1`, env.SERVICE_MASTER_KEY);
  skillHost = skills.host;
  attachConsumers(queue, deps, { model }, options.observer);
  queue.start();
  const smtp = await startSmtp(deps, { port: options.smtpPort ?? 0, host });
  // What an EventBridge schedule does in AWS: finish runs, eval runs and inbound mails a crash left queued, running or unworked.
  const sweeper = setInterval(() => void Promise.all([sweepRuns(deps), sweepEvalRuns(deps), sweepMails(deps)]).catch(sweepFailed), SWEEP_INTERVAL_MS);
  sweeper.unref();
  // What an EventBridge schedule does in AWS: start the knowledge syncs that are due, and those a crash stalled.
  const knowledgeTick = setInterval(
    () => void syncDueSources(deps).catch((error: unknown) => logger.error('knowledge scheduler failed', { error })),
    Number(env.KNOWLEDGE_TICK_MS ?? KNOWLEDGE_TICK_MS),
  );
  knowledgeTick.unref();
  // What an EventBridge schedule does in AWS: the e-mail fallback of conversations nobody claimed within the claim timeout.
  const claimTick = setInterval(
    () => void sweepUnclaimed(deps).catch((error: unknown) => logger.error('conversation sweeper failed', { error })),
    Number(env.CONVERSATION_SWEEP_MS ?? CONVERSATION_SWEEP_MS),
  );
  claimTick.unref();
  // What the hourly EventBridge schedule does in AWS: erase conversations past their workspace's retention. One round
  // at a time (a round may outlast a short interval), and stop() waits for the round under way.
  let retentionRound: Promise<void> | undefined;
  const retentionTick = setInterval(
    () => {
      retentionRound ??= sweepRetention(deps)
        .then(
          () => undefined,
          (error: unknown) => logger.error('retention sweeper failed', { error }),
        )
        .finally(() => (retentionRound = undefined));
    },
    Number(env.RETENTION_SWEEP_MS ?? RETENTION_SWEEP_MS),
  );
  retentionTick.unref();
  function sweepFailed(error: unknown): void {
    // dynalite cannot add an index to an existing table: a data dir from before the sweeper keeps working without it.
    if (error instanceof Error && /does not have the specified index/.test(error.message)) {
      clearInterval(sweeper);
      logger.warn('run sweeper off: the runs table of this DATA_DIR predates its pending index; a fresh DATA_DIR enables it', { dataDir: options.dataDir });
      return;
    }
    logger.error('run sweeper failed', { error });
  }
  return {
    url,
    apiBaseUrl: `${url}/en/api/v1`,
    demo: { ...seed, agentId: seed.agentIds[0]! },
    deps,
    queue,
    smtpPort: smtp.port,
    skillHost: skills.host,
    async stop() {
      await smtp.close();
      clearInterval(sweeper);
      clearInterval(knowledgeTick);
      clearInterval(claimTick);
      clearInterval(retentionTick);
      server.closeAllConnections();
      ipv6?.closeAllConnections();
      await Promise.all([server, ...(ipv6 ? [ipv6] : [])].map((open) => new Promise<void>((resolve) => open.close(() => resolve()))));
      // What handlers still write after their response (their connections are closed, so streams end) lands before
      // the store closes; bounded, should one never end.
      await Promise.race([Promise.all([...inFlight, retentionRound]), new Promise((resolve) => setTimeout(resolve, STOP_DRAIN_MS).unref())]);
      await queue.stop();
      // Spans waiting for the collector go now (their counts are written to the store), bounded as in a Lambda.
      await flushTraces(1_000);
      await skills.close();
      store.raw.destroy();
      await dynamo.stop();
      if (knowledge && knowledgeOpened) (await knowledge()).index.close();
      if (knowledgeFolders.temporary) await rm(knowledgeFolders.temporary, { recursive: true, force: true });
    },
  };
}
