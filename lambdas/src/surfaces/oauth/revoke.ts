import { OAuthRefusal } from '@service/shared';
import { revokeToken } from '../../domains/connections/grants';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import { formParams, oauthJson } from './responses';

/** POST /oauth/revoke (RFC 7009): always 200 for a well-formed request, whether or not the token was known. */
export async function revokeEndpoint(deps: Deps, event: HttpEvent): Promise<HttpResult> {
  const params = formParams(event);
  if (!params.token) throw new OAuthRefusal('invalid_request', 'token is required');
  await revokeToken(deps, params.token, params.client_id);
  return oauthJson(200, {});
}
