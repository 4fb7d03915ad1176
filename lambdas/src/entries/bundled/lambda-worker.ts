import { existsSync } from 'node:fs';
import { builtinModules, registerHooks } from 'node:module';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * One Lambda sandbox on a worker thread (its own `process.env`, the function's): loads the bundle from its asset
 * directory as the Node.js runtime does and runs each invocation the main thread posts. Imports nothing of the
 * platform, so what runs is the bundle alone.
 */
export interface SandboxData {
  assetDir: string;
  /** `index.handler`: file `index` (.js, .mjs or .cjs) of the asset, export `handler`. */
  handler: string;
  /** A file of the repository: the runtime's AWS SDK v3 resolves from its node_modules. */
  sdkFrom: string;
  /** The function's layers, in order, each a folder as Lambda extracts it to /opt (packages in `nodejs/node_modules`). */
  layers: string[];
  functionName: string;
  memoryMb: number;
  timeoutMs: number;
}

export type SandboxRequest = { type: 'invoke'; id: number; event: unknown; requestId: string };
export type SandboxReply =
  | { type: 'ready'; streaming: boolean }
  | { type: 'init-error'; error: string }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; error: string }
  /** The raw bytes of a streamed response, as the runtime client sends them (content type first). */
  | { type: 'stream-open'; id: number; contentType: string }
  | { type: 'stream-data'; id: number; data: Uint8Array }
  | { type: 'stream-end'; id: number };

const data = workerData as SandboxData;
const port = parentPort!;
const assetUrl = pathToFileURL(data.assetDir + '/').href;
const sdkParent = pathToFileURL(data.sdkFrom).href;
const RUNTIME_PACKAGES = /^@(aws-sdk|smithy)\//;
const builtins = new Set(builtinModules);

/** A file in each layer's `nodejs` folder: a bare import from there finds the layer's `nodejs/node_modules` (/opt/nodejs/node_modules in Lambda). */
const layerParents = data.layers.map((layer) => pathToFileURL(join(layer, 'nodejs', 'index.js')).href);

// The bundle sees what the nodejs22.x runtime offers: Node's built-ins, the AWS SDK v3 and its layers' packages.
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (
      !context.parentURL?.startsWith(assetUrl) ||
      specifier.startsWith('.') ||
      specifier.startsWith('file:') ||
      specifier.startsWith('node:') ||
      builtins.has(specifier)
    ) {
      return nextResolve(specifier, context);
    }
    if (RUNTIME_PACKAGES.test(specifier)) return nextResolve(specifier, { ...context, parentURL: sdkParent });
    for (const parentURL of layerParents) {
      try {
        return nextResolve(specifier, { ...context, parentURL });
      } catch {
        // Not in this layer: the next one, as /opt holds all layers merged.
      }
    }
    throw Object.assign(
      new Error(
        `Cannot find package '${specifier}' imported from ${context.parentURL} (the Lambda runtime provides only Node's built-ins, the AWS SDK v3 and the function's layers)`,
      ),
      {
        code: 'ERR_MODULE_NOT_FOUND',
      },
    );
  },
});

const METADATA_PRELUDE_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';
const STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');

/**
 * The runtime client's response stream: the content type goes out with the first byte, and `HttpResponseStream.from`
 * installs its prelude (status, headers, cookies, then eight zero bytes) to be written just before the FIRST WRITE.
 * A stream ended without a write therefore carries no prelude (aws-lambda-nodejs-runtime-interface-client,
 * src/stream/response-stream.ts and http-response-stream.ts).
 */
class ResponseStream extends Writable {
  contentType = 'application/octet-stream';
  _onBeforeFirstWrite: ((write: (chunk: string | Uint8Array) => void) => void) | undefined;
  private written = false;
  private opened = false;

  constructor(private readonly id: number) {
    super();
  }

  setContentType(contentType: string): void {
    if (this.written) throw new Error('Cannot set content-type, too late.');
    this.contentType = contentType;
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const data = typeof chunk === 'string' || chunk instanceof Uint8Array ? chunk : JSON.stringify(chunk);
    if (!this.written) this._onBeforeFirstWrite?.((first) => this.send(first));
    this.written = true;
    return super.write(data, encoding as BufferEncoding, callback as () => void);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.send(chunk);
    callback();
  }

  override _final(callback: () => void): void {
    port.postMessage({ type: 'stream-end', id: this.id } satisfies SandboxReply);
    callback();
  }

  private send(chunk: string | Uint8Array): void {
    if (!this.opened) port.postMessage({ type: 'stream-open', id: this.id, contentType: this.contentType } satisfies SandboxReply);
    this.opened = true;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    port.postMessage({ type: 'stream-data', id: this.id, data: new Uint8Array(bytes) } satisfies SandboxReply);
  }
}

(globalThis as Record<string, unknown>).awslambda = {
  streamifyResponse: (handler: (...args: unknown[]) => unknown) => Object.assign(handler, { [STREAMING]: 'response' }),
  HttpResponseStream: {
    from(stream: ResponseStream, prelude: Record<string, unknown>) {
      stream.setContentType(METADATA_PRELUDE_CONTENT_TYPE);
      const metadata = JSON.stringify(prelude);
      stream._onBeforeFirstWrite = (write) => {
        write(metadata);
        write(new Uint8Array(8));
      };
      return stream;
    },
  },
};

function contextFor(requestId: string) {
  const deadline = Date.now() + data.timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: data.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:000000000000:function:${data.functionName}`,
    memoryLimitInMB: String(data.memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${data.functionName}`,
    logStreamName: 'bundled',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

async function loadHandler(): Promise<(...args: unknown[]) => Promise<unknown>> {
  if (process.env.NODE_OPTIONS?.includes('--enable-source-maps')) process.setSourceMapsEnabled(true);
  const [file, exported] = data.handler.split('.') as [string, string];
  const path = ['.js', '.mjs', '.cjs'].map((extension) => join(data.assetDir, file + extension)).find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`Runtime.ImportModuleError: no ${file}.js, .mjs or .cjs in ${data.assetDir}`);
  const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  const handler = module[exported];
  if (typeof handler !== 'function') throw new Error(`Runtime.HandlerNotFound: ${data.handler} is undefined or not exported`);
  return handler as (...args: unknown[]) => Promise<unknown>;
}

try {
  const handler = await loadHandler();
  const streaming = (handler as unknown as Record<symbol, unknown>)[STREAMING] === 'response';
  port.on('message', (message: SandboxRequest) => {
    const context = contextFor(message.requestId);
    if (streaming) {
      const stream = new ResponseStream(message.id);
      Promise.resolve(handler(message.event, stream, context))
        .then(() => {
          if (!stream.writableEnded) stream.end();
        })
        .catch((error: unknown) => port.postMessage({ type: 'error', id: message.id, error: describe(error) } satisfies SandboxReply));
      return;
    }
    Promise.resolve(handler(message.event, context))
      .then((result) => port.postMessage({ type: 'result', id: message.id, result } satisfies SandboxReply))
      .catch((error: unknown) => port.postMessage({ type: 'error', id: message.id, error: describe(error) } satisfies SandboxReply));
  });
  port.postMessage({ type: 'ready', streaming } satisfies SandboxReply);
} catch (error) {
  port.postMessage({ type: 'init-error', error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies SandboxReply);
}
