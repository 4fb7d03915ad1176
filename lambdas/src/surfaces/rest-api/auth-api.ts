import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import { signInEndpoints } from './endpoints/auth';
import { passkeyEndpoints } from './endpoints/passkeys';
import { createRestPipeline } from './pipeline';

/**
 * auth/* (ROUTES.authApi): sign-in codes, sessions and passkeys, on the same REST pipeline and credentials as the Api
 * function, in a function of their own, so that only this one carries the WebAuthn verifier (SimpleWebAuthn and its
 * X.509/ASN.1 stack, which weigh on every cold start that loads them).
 */
export function createAuthApiHandler(deps: Deps) {
  const pipeline = createRestPipeline(deps, { ...signInEndpoints, ...passkeyEndpoints });
  return (event: HttpEvent, context: Context): Promise<HttpResult> => pipeline(event, context);
}
