import type { Context } from 'aws-lambda';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { REPO_ROOT } from '../cdk/lib/repo-paths';
import type { HttpEvent, HttpResult } from '../lambdas/src/infra/http/event';
import type { ResponseSink } from '../lambdas/src/infra/http/streaming';
import type { LocalFunction } from '../lambdas/src/entries/local/functions';
import { localContext } from '../lambdas/src/entries/local/lambda-event';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { createLocalServer } from '../lambdas/src/entries/local/server';

/**
 * What one soak measures, in a process of its own (its memory is the figure): the local platform as `npm start` runs
 * it, or one Lambda entry as the runtime holds it (imported once, its handler invoked again and again), served
 * over HTTP by the local platform's own server (its events are the ones the platform builds) or handed events.
 */
export type SoakTarget =
  | { kind: 'platform'; dataDir: string; env: Record<string, string> }
  | { kind: 'http'; entry: string; route: string; streaming: boolean }
  | { kind: 'events'; entry: string };

/** Parent to child: a memory sample or an event to invoke the handler with. */
export type SoakRequest = { id: number; memory: true } | { id: number; event: unknown };
/** Child to parent: where it listens once ready, then one answer per request. */
export type SoakReply = { ready: string } | { id: number; memory: NodeJS.MemoryUsage } | { id: number; done: true } | { id: number; error: string };

type LambdaHandler = (event: unknown, ...rest: unknown[]) => Promise<unknown>;

/** The Lambda runtime's response-streaming globals, writing through the local server's sink. */
function installStreamingRuntime(): void {
  const sinks = new WeakMap<Writable, ResponseSink>();
  (globalThis as { awslambda?: unknown }).awslambda = {
    streamifyResponse:
      (handler: (event: HttpEvent, stream: Writable, context: Context) => Promise<void>) => (event: HttpEvent, sink: ResponseSink, context: Context) => {
        const stream = new Writable({
          decodeStrings: false,
          write: (chunk: string, _encoding, done) => (sink.write(chunk), done()),
          final: (done) => (sink.end(), done()),
        });
        sink.signal.addEventListener('abort', () => stream.destroy());
        sinks.set(stream, sink);
        return handler(event, stream, context);
      },
    HttpResponseStream: {
      from: (stream: Writable, metadata: { statusCode: number; headers: Record<string, string> }) => (
        sinks.get(stream)!.start(metadata.statusCode, metadata.headers),
        stream
      ),
    },
  };
}

async function serve(target: SoakTarget): Promise<{ url: string; invoke?: LambdaHandler }> {
  if (target.kind === 'platform') {
    const platform = await startPlatform({ port: 0, dataDir: target.dataDir, env: target.env });
    return { url: platform.url };
  }
  installStreamingRuntime();
  const { handler } = (await import(join(REPO_ROOT, target.entry))) as { handler: LambdaHandler };
  if (target.kind === 'events') return { url: '', invoke: handler };
  const name = target.entry;
  const fn: LocalFunction = target.streaming
    ? { name, route: target.route, kind: 'streaming', handler: (event, sink, context) => handler(event, sink, context) as Promise<void> }
    : { name, route: target.route, kind: 'buffered', handler: (event, context) => handler(event, context) as Promise<HttpResult> };
  const server = createLocalServer([fn], new Set());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const send = (reply: SoakReply) => process.send!(reply);
const target = JSON.parse(process.env.SOAK_TARGET!) as SoakTarget;
const { url, invoke } = await serve(target);
process.on('message', (request: SoakRequest) => {
  if ('memory' in request) {
    // With --expose-gc (SOAK_GC=1, see soak.ts) each sample follows a full collection: live memory, not garbage awaiting one.
    (globalThis as { gc?: () => void }).gc?.();
    return send({ id: request.id, memory: process.memoryUsage() });
  }
  invoke!(request.event, localContext(target.kind === 'platform' ? 'platform' : target.entry)).then(
    () => send({ id: request.id, done: true }),
    (error: unknown) => send({ id: request.id, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
send({ ready: url });
