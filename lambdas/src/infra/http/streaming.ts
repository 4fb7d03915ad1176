import type { Context } from 'aws-lambda';
import type { Writable } from 'node:stream';
import type { HttpEvent, HttpResult } from './event';

/**
 * A response written in pieces (server-sent events). In AWS it is a Lambda Function URL with response streaming;
 * locally the platform's HTTP server hands the same handler a sink over the socket.
 */
export interface ResponseSink {
  /** Sends status and headers; call once, before the first write. */
  start(statusCode: number, headers: Record<string, string>): void;
  write(chunk: string): void;
  end(): void;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

export type StreamingHandler = (event: HttpEvent, sink: ResponseSink, context: Context) => Promise<void>;

interface LambdaStreamingRuntime {
  streamifyResponse(handler: (event: HttpEvent, stream: Writable, context: Context) => Promise<void>): unknown;
  HttpResponseStream: { from(stream: Writable, metadata: { statusCode: number; headers: Record<string, string> }): Writable };
}

/** Wraps a streaming handler for the Lambda Node.js runtime (`awslambda` is a global there). */
export function toLambdaStreamingHandler(handler: StreamingHandler): unknown {
  const runtime = (globalThis as { awslambda?: LambdaStreamingRuntime }).awslambda;
  if (!runtime) throw new Error('Response streaming needs the AWS Lambda runtime');
  return runtime.streamifyResponse(async (event, responseStream, context) => {
    const abort = new AbortController();
    responseStream.on('close', () => abort.abort());
    let stream: Writable = responseStream;
    await handler(
      event,
      {
        start: (statusCode, headers) => {
          stream = runtime.HttpResponseStream.from(responseStream, { statusCode, headers });
          // The runtime sends status and headers just before the first write(), never on end()
          // (aws/aws-lambda-nodejs-runtime-interface-client, src/HttpResponseStream.js and src/ResponseStream.js:
          // `_onBeforeFirstWrite`): an empty write sends them now, so a bodiless answer keeps them too.
          stream.write('');
        },
        write: (chunk) => void stream.write(chunk),
        end: () => stream.end(),
        signal: abort.signal,
      },
      context,
    );
  });
}

/** Sends a whole buffered result (an error envelope before any event was streamed) through a sink. */
export function writeResult(sink: ResponseSink, result: HttpResult): void {
  sink.start(result.statusCode ?? 200, result.headers);
  if (result.body) sink.write(result.body);
  sink.end();
}
