import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { logger } from '../../infra/logger';
import type { SandboxData, SandboxReply, SandboxRequest } from './lambda-worker';

/** A deployed function as the template describes it. */
export interface FunctionSpec {
  id: string;
  assetDir: string;
  handler: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** Its layers' asset folders, in the template's order. */
  layers: string[];
}

/** Where a streamed invocation's raw bytes go (the Function URL in front reads the prelude from them). */
export interface RawStream {
  open(contentType: string): void;
  data(bytes: Uint8Array): void;
  end(): void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  stream?: RawStream;
}

/**
 * The sandbox's code, made JavaScript here (Node's own type stripping) and loaded as a data: module: no TypeScript
 * loader runs in the sandbox, so its cold start is the bundle's own.
 */
let workerUrl: URL | undefined;
function sandboxCode(): URL {
  const source = readFileSync(fileURLToPath(new URL('./lambda-worker.ts', import.meta.url)), 'utf8');
  workerUrl ??= new URL(`data:text/javascript,${encodeURIComponent(stripTypeScriptTypes(source, { mode: 'transform' }))}`);
  return workerUrl;
}

/**
 * A Lambda function: a sandbox (worker thread with the function's own environment) started at the first invocation,
 * as a cold start, and started afresh after a crash or a timeout, as Lambda replaces a sandbox.
 */
export class LambdaFunction {
  private sandbox: Promise<{ worker: Worker; streaming: boolean }> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(
    readonly spec: FunctionSpec,
    readonly environment: Record<string, string>,
    private readonly sdkFrom: string,
    private readonly logs: 'inherit' | 'silent',
  ) {}

  /** A buffered invocation: the handler's return value. */
  invoke(event: unknown): Promise<unknown> {
    return this.run(event);
  }

  /** A streamed invocation (a RESPONSE_STREAM Function URL): bytes go to `stream`; resolves once it ended. */
  async invokeStreaming(event: unknown, stream: RawStream): Promise<void> {
    await this.run(event, stream);
  }

  async stop(): Promise<void> {
    const sandbox = this.sandbox;
    this.sandbox = undefined;
    if (sandbox) await (await sandbox.catch(() => undefined))?.worker.terminate();
  }

  private async run(event: unknown, stream?: RawStream): Promise<unknown> {
    const { worker, streaming } = await this.start();
    if (Boolean(stream) !== streaming) {
      throw new Error(
        `${this.spec.id}: the handler is ${streaming ? '' : 'not '}streamified (awslambda.streamifyResponse), the invocation ${stream ? 'streams' : 'is buffered'}`,
      );
    }
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${this.spec.id}: Task timed out after ${this.spec.timeoutSeconds} seconds`));
        void this.reset(worker);
      }, this.spec.timeoutSeconds * 1000);
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          this.pending.delete(id);
          done(value);
        };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject), ...(stream ? { stream } : {}) });
      worker.postMessage({ type: 'invoke', id, event, requestId: randomUUID() } satisfies SandboxRequest);
    });
  }

  private start(): Promise<{ worker: Worker; streaming: boolean }> {
    this.sandbox ??= new Promise((resolve, reject) => {
      const workerData: SandboxData = {
        assetDir: this.spec.assetDir,
        handler: this.spec.handler,
        sdkFrom: this.sdkFrom,
        layers: this.spec.layers,
        functionName: this.spec.id,
        memoryMb: this.spec.memoryMb,
        timeoutMs: this.spec.timeoutSeconds * 1000,
      };
      const worker = new Worker(sandboxCode(), { workerData, env: this.environment, stdout: true, stderr: true });
      worker.unref();
      // What the function logs (CloudWatch in AWS).
      if (this.logs === 'inherit') {
        worker.stdout.pipe(process.stdout);
        worker.stderr.pipe(process.stderr);
      } else {
        worker.stdout.resume();
        worker.stderr.resume();
      }
      worker.on('message', (reply: SandboxReply) => {
        if (reply.type === 'ready') return resolve({ worker, streaming: reply.streaming });
        if (reply.type === 'init-error') {
          void this.reset(worker);
          return reject(new Error(`${this.spec.id}: Runtime.InitError: ${reply.error}`));
        }
        this.deliver(reply);
      });
      worker.on('error', (error) => {
        logger.error('bundled function crashed', { function: this.spec.id, error });
        reject(error);
        void this.reset(worker, error);
      });
    });
    return this.sandbox;
  }

  private deliver(reply: Exclude<SandboxReply, { type: 'ready' | 'init-error' }>): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    switch (reply.type) {
      case 'result':
        return pending.resolve(reply.result);
      case 'error':
        return pending.reject(new Error(`${this.spec.id}: ${reply.error}`));
      case 'stream-open':
        return pending.stream?.open(reply.contentType);
      case 'stream-data':
        return pending.stream?.data(reply.data);
      case 'stream-end':
        pending.stream?.end();
        return pending.resolve(undefined);
    }
  }

  /** Drops the sandbox (the next invocation cold-starts) and fails what was running in it. */
  private async reset(worker: Worker, cause?: Error): Promise<void> {
    this.sandbox = undefined;
    for (const pending of this.pending.values()) pending.reject(cause ?? new Error(`${this.spec.id}: the sandbox was replaced`));
    this.pending.clear();
    await worker.terminate();
  }
}
