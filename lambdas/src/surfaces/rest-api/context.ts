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

export type ApiContext = Context & { api?: ApiRequestState };

export interface ApiRequest {
  event: HttpEvent;
  context: ApiContext;
  response: HttpResult | null | undefined;
  error: unknown;
}

/** The state once routing ran; a middleware after the router may rely on it. */
export function apiState(request: ApiRequest): ApiRequestState {
  if (!request.context.api) throw new Error('router middleware must run first');
  return request.context.api;
}
