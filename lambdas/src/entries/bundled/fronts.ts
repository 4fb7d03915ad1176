import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { runInNewContext } from 'node:vm';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import { matchRoute } from '../../infra/http/routes';
import { logger } from '../../infra/logger';
import { toApiGatewayEvent } from '../local/lambda-event';
import { writeResult } from '../local/server';
import { readStaticFile } from '../local/static-files';
import type { LambdaFunction } from './lambda-function';

/**
 * The AWS front doors of the stack, each on its own loopback port (its own origin, as each is its own host in AWS):
 * the HTTP API, the Function URLs and the CloudFront distributions.
 */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

export async function listen(handler: RequestHandler): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      logger.error('bundled front failed', { path: request.url?.split('?')[0], error });
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal Server Error"}');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The payload 2.0 event of API Gateway (with the route that matched) and of Function URLs (`$default`). */
async function payloadV2(request: IncomingMessage, routeKey: string, pathParameters?: Record<string, string>): Promise<HttpEvent> {
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  const event = toApiGatewayEvent(request, url, await readBody(request));
  return { ...event, routeKey, ...(pathParameters ? { pathParameters } : {}), requestContext: { ...event.requestContext, routeKey } };
}

/** A handler's return value as the integration reads it: a result object, or anything else as a JSON body. */
function asResult(value: unknown): HttpResult {
  if (value && typeof value === 'object' && 'statusCode' in value) return { ...(value as HttpResult), headers: (value as HttpResult).headers ?? {} };
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: typeof value === 'string' ? value : JSON.stringify(value) };
}

export interface HttpApiRoute {
  method: string;
  path: string;
  fn: LambdaFunction;
}

/** API Gateway picks the most specific route: fewer greedy variables, more literal segments, a method over ANY. */
const specificity = (route: HttpApiRoute) => {
  const segments = route.path.split('/');
  return [
    -segments.filter((segment) => segment.endsWith('+}')).length,
    segments.filter((segment) => !segment.startsWith('{')).length,
    route.method === 'ANY' ? 0 : 1,
  ];
};
const bySpecificity = (a: HttpApiRoute, b: HttpApiRoute) => {
  const [x, y] = [specificity(a), specificity(b)];
  return y[0]! - x[0]! || y[1]! - x[1]! || y[2]! - x[2]!;
};

/** An HTTP API ($default stage, payload 2.0): its routes (complete by the first request), nothing else. */
export const httpApi = (routes: HttpApiRoute[]): RequestHandler => {
  let ordered: HttpApiRoute[] | undefined;
  return async (request, response) => {
    ordered ??= [...routes].sort(bySpecificity);
    const path = new URL(request.url ?? '/', 'http://api').pathname;
    const route = ordered.find((candidate) => (candidate.method === 'ANY' || candidate.method === request.method) && matchRoute(candidate.path, path));
    if (!route) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    const event = await payloadV2(request, `${route.method} ${route.path}`, matchRoute(route.path, path));
    const result = await route.fn.invoke(event).catch((error: unknown) => {
      logger.error('bundled function failed', { function: route.fn.spec.id, error });
      return undefined;
    });
    if (result === undefined) return void response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal Server Error"}');
    writeResult(response, asResult(result));
  };
};

export interface FunctionUrlCors {
  AllowOrigins?: string[];
  AllowMethods?: string[];
  AllowHeaders?: string[];
  ExposeHeaders?: string[];
  MaxAge?: number;
}

const METADATA_PRELUDE_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';
const PRELUDE_DELIMITER = Buffer.alloc(8);

/** CORS as a Function URL applies it: preflights answered by the service, the allow headers added to every answer. */
function corsHeaders(cors: FunctionUrlCors | undefined, request: IncomingMessage): Record<string, string> {
  const origin = request.headers.origin;
  if (!cors || !origin || !(cors.AllowOrigins ?? []).some((allowed) => allowed === '*' || allowed === origin)) return {};
  return {
    'access-control-allow-origin': cors.AllowOrigins?.includes('*') ? '*' : origin,
    ...(cors.ExposeHeaders?.length ? { 'access-control-expose-headers': cors.ExposeHeaders.join(',') } : {}),
  };
}

/**
 * A Function URL (payload 2.0). BUFFERED: the handler's result. RESPONSE_STREAM: the bytes the runtime client sends;
 * with the HTTP integration content type, the JSON prelude up to eight zero bytes gives status, headers and cookies,
 * and a stream that ended before any byte is a 200 without headers.
 */
export const functionUrl =
  (fn: LambdaFunction, invokeMode: 'BUFFERED' | 'RESPONSE_STREAM', cors?: FunctionUrlCors): RequestHandler =>
  async (request, response) => {
    if (cors && request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      const allowed = corsHeaders(cors, request);
      return void response
        .writeHead(200, {
          ...allowed,
          ...(cors.AllowMethods ? { 'access-control-allow-methods': cors.AllowMethods.join(',') } : {}),
          ...(cors.AllowHeaders ? { 'access-control-allow-headers': cors.AllowHeaders.join(',') } : {}),
          ...(cors.MaxAge ? { 'access-control-max-age': String(cors.MaxAge) } : {}),
        })
        .end();
    }
    const extra = corsHeaders(cors, request);
    const event = await payloadV2(request, '$default');
    if (invokeMode === 'BUFFERED') {
      const result = await fn.invoke(event).catch((error: unknown) => {
        logger.error('bundled function failed', { function: fn.spec.id, error });
        return undefined;
      });
      if (result === undefined) return void response.writeHead(502, { 'content-type': 'application/json' }).end('{"Message":null}');
      const answer = asResult(result);
      return writeResult(response, { ...answer, headers: { ...answer.headers, ...extra } });
    }
    let contentType = '';
    let prelude: Buffer | undefined;
    const head = (status: number, headers: Record<string, string>, cookies?: string[]) => {
      response.writeHead(status, { ...headers, ...extra, ...(cookies?.length ? { 'set-cookie': cookies } : {}) });
      response.flushHeaders();
    };
    await fn
      .invokeStreaming(event, {
        open: (type) => {
          contentType = type;
          if (type === METADATA_PRELUDE_CONTENT_TYPE) prelude = Buffer.alloc(0);
          else head(200, { 'content-type': type });
        },
        data: (bytes) => {
          if (!prelude) return void response.write(bytes);
          prelude = Buffer.concat([prelude, bytes]);
          const end = prelude.indexOf(PRELUDE_DELIMITER);
          if (end < 0) return;
          const metadata = JSON.parse(prelude.subarray(0, end).toString('utf8')) as {
            statusCode?: number;
            headers?: Record<string, string>;
            cookies?: string[];
          };
          head(metadata.statusCode ?? 200, metadata.headers ?? {}, metadata.cookies);
          const rest = prelude.subarray(end + PRELUDE_DELIMITER.length);
          prelude = undefined;
          if (rest.length) response.write(rest);
        },
        end: () => {
          if (!response.headersSent) head(200, {});
          response.end();
        },
      })
      .catch((error: unknown) => {
        logger.error('bundled function failed', { function: fn.spec.id, contentType, error });
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' }).end('{"Message":null}');
        else response.end();
      });
  };

export type DistributionOrigin = { kind: 's3' } | { kind: 'http'; target: string; customHeaders: Record<string, string> };

export interface DistributionBehavior {
  /** CloudFront's path pattern (`*` any characters, `?` one); undefined for the default behaviour. */
  pathPattern?: string;
  origin: DistributionOrigin;
  /** A CloudFront Function (cloudfront-js) run on the viewer request. */
  viewerRequest?: string;
}

const patternRegex = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

type CloudFrontHeaders = Record<string, { value: string }>;
type ViewerResult = { statusCode: number; headers?: CloudFrontHeaders } | { uri: string; headers?: CloudFrontHeaders };

/**
 * A CloudFront distribution: the first behaviour whose pattern matches (else the default) picks the origin (behaviours
 * complete by the first request); a viewer-request function sees and may change the request (its uri and headers) or
 * answer it. S3 origins serve the built files (the local platform's static files); custom origins are forwarded every
 * viewer header but Host (ALL_VIEWER_EXCEPT_HOST_HEADER) plus the origin's custom headers. Nothing is cached.
 */
export const distribution = (behaviors: DistributionBehavior[]): RequestHandler => {
  let compiled: (DistributionBehavior & { regex: RegExp })[] | undefined;
  return async (request, response) => {
    compiled ??= behaviors.map((behavior) => ({ ...behavior, regex: behavior.pathPattern ? patternRegex(behavior.pathPattern) : /^/ }));
    const url = new URL(request.url ?? '/', 'http://viewer');
    const behavior =
      compiled.find((candidate) => candidate.pathPattern && candidate.regex.test(url.pathname)) ?? compiled.find((candidate) => !candidate.pathPattern)!;
    let uri = url.pathname;
    let viewerHeaders: CloudFrontHeaders = Object.fromEntries(
      Object.entries(request.headers).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, { value: Array.isArray(value) ? value.join(', ') : value }]],
      ),
    );
    if (behavior.viewerRequest) {
      const event = { request: { uri, method: request.method, querystring: {}, headers: viewerHeaders } };
      const result = runInNewContext(`${behavior.viewerRequest}\nhandler(event);`, { event }) as ViewerResult;
      if ('statusCode' in result) {
        return void response
          .writeHead(result.statusCode, Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, header]) => [name, header.value])))
          .end();
      }
      uri = result.uri;
      viewerHeaders = result.headers ?? viewerHeaders;
    }
    if (behavior.origin.kind === 's3') {
      const file = await readStaticFile(uri);
      if (!file) return void response.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>');
      return void response
        .writeHead(200, { 'content-type': file.contentType, 'cache-control': file.cacheControl, ...file.headers })
        .end(request.method === 'HEAD' ? undefined : file.body);
    }
    const headers = new Headers();
    for (const [name, header] of Object.entries(viewerHeaders)) if (name !== 'host' && name !== 'connection') headers.set(name, header.value);
    for (const [name, value] of Object.entries(behavior.origin.customHeaders)) headers.set(name, value);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request);
    const answer = await fetch(`${behavior.origin.target}${uri}${url.search}`, {
      method: request.method ?? 'GET',
      headers,
      redirect: 'manual',
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
    const forwarded: Record<string, string | string[]> = {};
    answer.headers.forEach((value, name) => {
      if (!['set-cookie', 'content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) forwarded[name] = value;
    });
    const cookies = answer.headers.getSetCookie();
    response.writeHead(answer.status, cookies.length ? { ...forwarded, 'set-cookie': cookies } : forwarded);
    response.flushHeaders();
    if (!answer.body) return void response.end();
    const stream = Readable.fromWeb(answer.body as WebReadableStream);
    response.on('close', () => stream.destroy());
    stream.pipe(response);
  };
};
