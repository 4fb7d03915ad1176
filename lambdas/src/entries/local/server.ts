import { DASHBOARD_PREFIX, failure } from '@service/shared';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HttpResult } from '../../infra/http/event';
import type { ResponseSink } from '../../infra/http/streaming';
import { routeFor } from '../../infra/http/routes';
import type { LocalFunction } from './functions';
import { localContext, toApiGatewayEvent } from './lambda-event';
import { readStaticFile } from './static-files';
import { logger } from '../../infra/logger';

/** The largest request API Gateway and Lambda accept (6 MB payload). */
const MAX_REQUEST_BYTES = 6 * 1024 * 1024;

function sendJsonFailure(response: ServerResponse, status: number, code: 'NOT_FOUND' | 'PAYLOAD_TOO_LARGE' | 'INTERNAL_ERROR', msg: string) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(failure(status, code, msg)));
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Writes a buffered handler's result as API Gateway v2 and a buffered Function URL do. */
export function writeResult(response: ServerResponse, result: HttpResult): void {
  const body = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  // API Gateway v2 turns `cookies` into one Set-Cookie header each; so does the local server.
  response.writeHead(result.statusCode ?? 200, result.cookies?.length ? { ...result.headers, 'set-cookie': result.cookies } : result.headers);
  response.end(body);
}

function sinkFor(response: ServerResponse): ResponseSink {
  const abort = new AbortController();
  response.on('close', () => abort.abort());
  return {
    start: (statusCode, headers) => void response.writeHead(statusCode, headers).flushHeaders(),
    write: (chunk) => void response.write(chunk),
    end: () => void response.end(),
    signal: abort.signal,
  };
}

/**
 * The requests being handled. A handler may still write after its response is done (a chat reply's usage and its
 * unanswered question come after `done`): the platform's stop waits for these before it closes the store.
 */
export type InFlight = Set<Promise<void>>;

/** One HTTP server for the whole local platform: requests become API Gateway v2 events for the production handlers. */
export function createLocalServer(functions: LocalFunction[], inFlight: InFlight): Server {
  return createServer((request, response) => {
    const handled = handle(functions, request, response);
    inFlight.add(handled);
    void handled.finally(() => inFlight.delete(handled));
  });
}

async function handle(functions: LocalFunction[], request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
    const fn = routeFor(functions, url.pathname);
    if (!fn) {
      if (url.pathname === DASHBOARD_PREFIX.slice(0, -1)) return void response.writeHead(308, { location: DASHBOARD_PREFIX }).end();
      const file = request.method === 'GET' || request.method === 'HEAD' ? await readStaticFile(url.pathname) : undefined;
      if (!file) return sendJsonFailure(response, 404, 'NOT_FOUND', `Nothing at ${url.pathname}`);
      response.writeHead(200, {
        'content-type': file.contentType,
        'cache-control': file.cacheControl,
        'x-content-type-options': 'nosniff',
        ...(file.crossOrigin ? { 'access-control-allow-origin': '*' } : {}),
        ...file.headers,
      });
      return void response.end(request.method === 'HEAD' ? undefined : file.body);
    }
    const body = await readBody(request);
    if (!body) return sendJsonFailure(response, 413, 'PAYLOAD_TOO_LARGE', `Requests are limited to ${MAX_REQUEST_BYTES} bytes`);
    const event = toApiGatewayEvent(request, url, body);
    if (fn.kind === 'streaming') return await fn.handler(event, sinkFor(response), localContext(fn.name));
    writeResult(response, await fn.handler(event, localContext(fn.name)));
  } catch (error) {
    logger.error('local server failed to handle a request', { path: request.url?.split('?')[0], error });
    if (!response.headersSent) sendJsonFailure(response, 500, 'INTERNAL_ERROR', 'The local platform failed to handle the request');
    else response.end();
  }
}
