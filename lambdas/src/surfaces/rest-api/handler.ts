import { buildOpenApiDocument } from '@service/shared/openapi';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import { jsonResult, type HttpEvent, type HttpResult } from '../../infra/http/event';
import { ENDPOINT_HANDLERS } from './endpoints';
import { createRestPipeline } from './pipeline';
import { auditedRunner } from './middleware/audit';

const OPENAPI_PATH = /^\/([a-z]{2})\/api\/v1\/openapi\.json$/;

/** The public OpenAPI document, served without a key at {base_url}/openapi.json. */
function openApiResult(event: HttpEvent): HttpResult {
  const host = event.headers.host ?? 'localhost';
  const proto = event.headers['x-forwarded-proto'] ?? 'https';
  const base = event.rawPath.replace(/\/openapi\.json$/, '');
  return jsonResult(200, buildOpenApiDocument(`${proto}://${host}${base}`), { 'cache-control': 'public, max-age=300' });
}

/**
 * The REST API Lambda: the REST pipeline (pipeline.ts) with every endpoint, and the OpenAPI document.
 * Production and the local platform both call exactly this.
 */
export function createApiHandler(deps: Deps) {
  const pipeline = createRestPipeline(deps, ENDPOINT_HANDLERS, auditedRunner(deps, ENDPOINT_HANDLERS));
  return async (event: HttpEvent, context: Context): Promise<HttpResult> =>
    OPENAPI_PATH.test(event.rawPath) && event.requestContext.http.method === 'GET' ? openApiResult(event) : pipeline(event, context);
}
