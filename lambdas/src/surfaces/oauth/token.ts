import { OAuthRefusal } from '@service/shared';
import { exchangeCode, refreshTokens } from '../../domains/connections/grants';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import { formParams, oauthJson } from './responses';
import type { OAuthUrls } from './urls';

/** POST /oauth/token: authorization_code (PKCE S256, `resource` required) and refresh_token (rotating). Public clients only. */
export async function tokenEndpoint(deps: Deps, event: HttpEvent, urls: OAuthUrls): Promise<HttpResult> {
  const params = formParams(event);
  if (event.headers.authorization?.toLowerCase().startsWith('basic ') || params.client_secret !== undefined) {
    throw new OAuthRefusal('invalid_client', 'Clients here are public (token_endpoint_auth_method none): send client_id, no secret');
  }
  if (!params.client_id) throw new OAuthRefusal('invalid_request', 'client_id is required');
  switch (params.grant_type) {
    case 'authorization_code':
      if (!params.code) throw new OAuthRefusal('invalid_request', 'code is required');
      return oauthJson(
        200,
        await exchangeCode(
          deps,
          { code: params.code, codeVerifier: params.code_verifier, redirectUri: params.redirect_uri, clientId: params.client_id, resource: params.resource },
          urls.resource,
        ),
      );
    case 'refresh_token':
      if (!params.refresh_token) throw new OAuthRefusal('invalid_request', 'refresh_token is required');
      return oauthJson(
        200,
        await refreshTokens(
          deps,
          { refreshToken: params.refresh_token, clientId: params.client_id, resource: params.resource, scope: params.scope },
          urls.resource,
        ),
      );
    default:
      throw new OAuthRefusal('unsupported_grant_type', `grant_type must be authorization_code or refresh_token, not ${params.grant_type ?? 'missing'}`);
  }
}
