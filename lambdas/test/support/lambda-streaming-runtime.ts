import { Writable } from 'node:stream';
import type { Context } from 'aws-lambda';
import type { HttpEvent } from '../../src/infra/http/event';

const HTTP_INTEGRATION_RESPONSE = 'application/vnd.awslambda.http-integration-response';
const DELIMITER = Buffer.alloc(8);

/**
 * The response stream of the Lambda Node.js runtime as aws/aws-lambda-nodejs-runtime-interface-client builds it
 * (src/ResponseStream.js, src/HttpResponseStream.js): `HttpResponseStream.from` installs `_onBeforeFirstWrite`, which
 * only `write()` calls; `end()` goes straight to the transport, so a stream ended without a write sends no prelude.
 */
class RuntimeResponseStream extends Writable {
  contentType = 'application/octet-stream';
  _onBeforeFirstWrite: ((write: (chunk: string | Uint8Array) => void) => void) | undefined;
  private writeCalled = false;
  private readonly sent: Buffer[] = [];

  setContentType(contentType: string): void {
    if (this.writeCalled) throw new Error('Cannot set content-type, too late.');
    this.contentType = contentType;
  }

  override write(chunk: string | Uint8Array, ...rest: never[]): boolean {
    if (!this.writeCalled) this._onBeforeFirstWrite?.((prelude) => super.write(prelude));
    this.writeCalled = true;
    return super.write(chunk, ...rest);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.sent.push(chunk);
    callback();
  }

  /** What a Function URL makes of the bytes: the prelude's status and headers, else 200 with the bytes as the body. */
  response(): { statusCode: number; headers: Record<string, string>; body: string } {
    const bytes = Buffer.concat(this.sent);
    const at = bytes.indexOf(DELIMITER);
    if (this.contentType !== HTTP_INTEGRATION_RESPONSE || at < 0) return { statusCode: 200, headers: {}, body: bytes.toString('utf8') };
    const prelude = JSON.parse(bytes.subarray(0, at).toString('utf8')) as { statusCode?: number; headers?: Record<string, string> };
    return { statusCode: prelude.statusCode ?? 200, headers: prelude.headers ?? {}, body: bytes.subarray(at + DELIMITER.length).toString('utf8') };
  }
}

type StreamifiedHandler = (event: HttpEvent, stream: Writable, context: Context) => Promise<void>;

/** The `awslambda` global the Lambda runtime provides to streaming handlers. */
export const lambdaStreamingRuntime = {
  streamifyResponse: (handler: StreamifiedHandler) => handler,
  HttpResponseStream: {
    from(stream: RuntimeResponseStream, prelude: { statusCode: number; headers: Record<string, string> }) {
      stream.setContentType(HTTP_INTEGRATION_RESPONSE);
      const metadata = JSON.stringify(prelude);
      stream._onBeforeFirstWrite = (write) => {
        write(metadata);
        write(DELIMITER);
      };
      return stream;
    },
  },
};

/** Invokes a streamified handler as the runtime does and returns what the Function URL's client receives. */
export async function invokeStreaming(handler: unknown, event: HttpEvent) {
  const stream = new RuntimeResponseStream();
  const finished = new Promise<void>((resolve) => stream.on('finish', resolve));
  await (handler as StreamifiedHandler)(event, stream, {} as Context);
  await finished;
  return stream.response();
}
