import middy from '@middy/core';
import { buildOpenApiDocument } from '@service/shared';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import { jsonResult, successResult, type HttpEvent, type HttpResult } from '../../infra/http/event';
import { apiState, type ApiContext } from './context';
import { ENDPOINT_HANDLERS } from './endpoints';
import type { EndpointHandler } from './endpoints/types';
import { authenticate } from './middleware/authenticate';
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
 * The REST API Lambda: router, API key + rate limit + plan, JSON body + validation, idempotency, then the endpoint.
 * Production and the local platform both call exactly this.
 */
export function createApiHandler(deps: Deps) {
  const core = async (event: HttpEvent, context: Context): Promise<HttpResult> => {
    const state = apiState({ event, context: context as ApiContext, response: undefined, error: undefined });
    const handle = ENDPOINT_HANDLERS[state.endpointName] as EndpointHandler<typeof state.endpointName>;
    const { data, msg } = await handle({
      deps,
      workspace: state.workspace!,
      apiKey: state.apiKey!,
      lang: state.lang,
      body: state.body as never,
      query: state.query as never,
      action: state.action ?? { at: deps.now() },
    });
    return successResult(state.endpoint.status, data, msg ?? 'OK');
  };
  const pipeline = middy<HttpEvent, HttpResult, Error, ApiContext>(core)
    .use(errorEnvelope())
    .use(router())
    .use(authenticate(deps))
    .use(parseInput(deps.config.maxBodyBytes))
    .use(idempotency(deps));
  return async (event: HttpEvent, context: Context): Promise<HttpResult> =>
    OPENAPI_PATH.test(event.rawPath) && event.requestContext.http.method === 'GET' ? openApiResult(event) : pipeline(event, context as ApiContext);
}
