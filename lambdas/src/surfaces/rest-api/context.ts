import type { Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { EndpointContract, EndpointName } from '@service/shared';
import type { StoredApiKey, RateLimitState } from '../../domains/access/api-keys';
import type { Action } from '../../infra/store/idempotency';
import type { Workspace } from '../../domains/access/workspaces';
import type { HttpEvent, HttpResult } from '../../infra/http/event';

/** What the middlewares learn about a request, for the next middleware and the endpoint. */
export interface ApiRequestState {
  lang: string;
  endpointName: EndpointName;
  endpoint: EndpointContract;
  apiKey?: StoredApiKey;
  workspace?: Workspace;
  rate?: RateLimitState;
  body?: unknown;
  query?: unknown;
  /** Set by an Idempotency-Key claim: the identity a retry of the same request reuses. */
  action?: Action;
}

/** A claimed Idempotency-Key: what completing, releasing or unlocking it needs. */
export interface IdempotencyClaim {
  scopedKey: string;
  requestHash: string;
}

/** Per-request state, in middy's `request.internal` (never on the Lambda context, never in a module-level map). */
export interface ApiInternal extends Record<string, unknown> {
  api?: ApiRequestState;
  claim?: IdempotencyClaim;
}

export type ApiRequest = Request<HttpEvent, HttpResult, Error, Context, ApiInternal>;

/** The state once routing ran; a middleware after the router may rely on it. */
export function apiState(request: ApiRequest): ApiRequestState {
  if (!request.internal.api) throw new Error('router middleware must run first');
  return request.internal.api;
}
