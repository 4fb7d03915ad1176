import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpEvent } from '../../src/infra/http/event';
import { SSE_HEADERS, sseFrame } from '../../src/infra/http/sse';
import { toLambdaStreamingHandler, writeResult, type StreamingHandler } from '../../src/infra/http/streaming';
import { invokeStreaming, lambdaStreamingRuntime } from '../support/lambda-streaming-runtime';

/** A streaming Function URL in the Lambda runtime: what its client receives for each shape of answer. */
const event = { rawPath: '/oauth/authorize', headers: {}, requestContext: { http: { method: 'GET' } } } as unknown as HttpEvent;
const serve = (handler: StreamingHandler) => invokeStreaming(toLambdaStreamingHandler(handler), event);

beforeAll(() => {
  (globalThis as { awslambda?: unknown }).awslambda = lambdaStreamingRuntime;
});
afterAll(() => {
  delete (globalThis as { awslambda?: unknown }).awslambda;
});

describe('responses on a streaming Function URL', () => {
  it('a redirect without a body reaches the client with its status and Location', async () => {
    const response = await serve(async (_, sink) => writeResult(sink, { statusCode: 303, headers: { location: 'https://client.example/cb?code=abc' } }));
    expect(response).toEqual({ statusCode: 303, headers: { location: 'https://client.example/cb?code=abc' }, body: '' });
  });

  it('a bodiless preflight keeps its 204 and CORS headers', async () => {
    const response = await serve(async (_, sink) => writeResult(sink, { statusCode: 204, headers: { 'access-control-allow-origin': '*' } }));
    expect(response).toMatchObject({ statusCode: 204, headers: { 'access-control-allow-origin': '*' }, body: '' });
  });

  it('a buffered answer with a body keeps its status, headers and body', async () => {
    const response = await serve(async (_, sink) =>
      writeResult(sink, { statusCode: 404, headers: { 'content-type': 'application/json' }, body: '{"error":"not_found"}' }),
    );
    expect(response).toEqual({ statusCode: 404, headers: { 'content-type': 'application/json' }, body: '{"error":"not_found"}' });
  });

  it('server-sent events come after their headers, in order', async () => {
    const response = await serve(async (_, sink) => {
      sink.start(200, { ...SSE_HEADERS });
      sink.write(sseFrame({ name: 'delta', data: { text: 'Hel' } }));
      sink.write(sseFrame({ name: 'delta', data: { text: 'lo' } }));
      sink.end();
    });
    expect(response).toEqual({
      statusCode: 200,
      headers: SSE_HEADERS,
      body: `${sseFrame({ name: 'delta', data: { text: 'Hel' } })}${sseFrame({ name: 'delta', data: { text: 'lo' } })}`,
    });
  });
});
