import middy from '@middy/core';
import { buildOpenApiDocument } from '@service/shared';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import { jsonResult, type HttpEvent, type HttpResult } from '../../infra/http/event';
import type { ApiInternal } from './context';
import { authenticate } from './middleware/authenticate';
import { endpoint } from './middleware/endpoint';
import { errorEnvelope } from './middleware/error-envelope';
import { idempotency } from './middleware/idempotency';
import { parseInput } from './middleware/parse-input';
import { router } from './middleware/router';

const OPENAPI_PATH = /^\/([a-z]{2})\/api\/v1\/openapi\.json$/;

/** The public OpenAPI document, served without a key at {base_url}/openapi.json. */
function openApiResult(event: HttpEvent): HttpResult {
  const host = event.headers.host ?? 'localhost';
  const proto = event.headers['x-forwarded-proto'] ?? 'https';
  const base = event.rawPath.replace(/\/openapi\.json$/, '');
  return jsonResult(200, buildOpenApiDocument(`${proto}://${host}${base}`), { 'cache-control': 'public, max-age=300' });
}

/**
 * The REST API Lambda: router, API key + rate limit + plan, JSON body + validation, idempotency, then the endpoint
 * (the innermost middleware, so that every step reads the request's state from `request.internal`).
 * Production and the local platform both call exactly this.
 */
export function createApiHandler(deps: Deps) {
  const pipeline = middy<HttpEvent, HttpResult, Error, Context, ApiInternal>()
    .use(errorEnvelope())
    .use(router())
    .use(authenticate(deps))
    .use(parseInput(deps.config.maxBodyBytes))
    .use(idempotency(deps))
    .use(endpoint(deps));
  return async (event: HttpEvent, context: Context): Promise<HttpResult> =>
    OPENAPI_PATH.test(event.rawPath) && event.requestContext.http.method === 'GET' ? openApiResult(event) : pipeline(event, context);
}
