import type { Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { EndpointContract, EndpointName } from '@service/shared';
import type { StoredApiKey } from '../../domains/access/api-keys';
import type { RateLimitState } from '../../domains/access/key-admission';
import type { Action } from '../../infra/store/idempotency';
import type { Workspace } from '../../domains/access/workspaces';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import type { ActiveSession } from '../../domains/people/sessions';
import type { Client } from './endpoints/types';

/** What the middlewares learn about a request, for the next middleware and the endpoint. */
export interface ApiRequestState {
  lang: string;
  endpointName: EndpointName;
  endpoint: EndpointContract;
  apiKey?: StoredApiKey;
  /** A signed-in person's session (the dashboard), instead of an API key. */
  session?: ActiveSession;
  /** The caller's role in the workspace: `admin` for an API key, the member's own for a session. */
  role?: string;
  /** Who called from where (set by the authentication, for every endpoint). */
  client?: Client;
  workspace?: Workspace;
  rate?: RateLimitState;
  body?: unknown;
  query?: unknown;
  /** Set by an Idempotency-Key claim: the identity a retry of the same request reuses. */
  action?: Action;
  /** The workspace's token use this month, read ahead by the authentication of a token-gated endpoint. */
  tokensUsed?: Promise<number>;
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
