import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import type { ApiInternal } from './context';
import type { EndpointHandlers } from './endpoints/types';
import type { EndpointName } from '@service/shared';
import { authenticate } from './middleware/authenticate';
import { endpoint } from './middleware/endpoint';
import type { EndpointRunner } from './middleware/audit';
import { errorEnvelope } from './middleware/error-envelope';
import { idempotency } from './middleware/idempotency';
import { parseInput } from './middleware/parse-input';
import { router } from './middleware/router';

/**
 * The REST pipeline: router, authentication (API key or session) + rate limit + plan + access level, JSON body +
 * validation, idempotency, then the endpoint (the innermost middleware, so that every step reads the request's
 * state from `request.internal`). `handlers` are the endpoints this function serves: all of them for the Api
 * function, a few for a function with other grants (conversations); `run`, for a function serving changes, records
 * their audit entries (auditedRunner).
 */
export function createRestPipeline(deps: Deps, handlers: Partial<EndpointHandlers<EndpointName>>, run?: EndpointRunner) {
  return middy<HttpEvent, HttpResult, Error, Context, ApiInternal>()
    .use(errorEnvelope())
    .use(router())
    .use(authenticate(deps))
    .use(parseInput(deps.config.maxBodyBytes))
    .use(idempotency(deps))
    .use(endpoint(deps, handlers, run));
}
