import { AUTHORIZATION_SERVER_METADATA_PATH, PROTECTED_RESOURCE_METADATA_PATHS } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import { methodNotAllowed, requireMethod } from '../../infra/http/errors';
import { ApiError } from '@service/shared';
import { authorizeDecision, authorizePage } from './authorize';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata';
import { readRegistrationEndpoint, registerEndpoint } from './register';
import { oauthError, oauthJson, preflight } from './responses';
import { revokeEndpoint } from './revoke';
import { tokenEndpoint } from './token';
import { oauthUrls } from './urls';

const stripSlash = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);

/**
 * The authorization server and the discovery documents: `/.well-known/*` and `/oauth/*`. Buffered; OAuth endpoints
 * answer OAuth's own error shape, the consent page HTML, unknown paths the envelope's NOT_FOUND.
 */
export function createOAuthHandler(deps: Deps) {
  return async (event: HttpEvent): Promise<HttpResult> => {
    const path = stripSlash(event.rawPath);
    const method = event.requestContext.http.method.toUpperCase();
    try {
      const urls = oauthUrls(deps, event);
      if (path === AUTHORIZATION_SERVER_METADATA_PATH || (PROTECTED_RESOURCE_METADATA_PATHS as readonly string[]).includes(path)) {
        if (method === 'OPTIONS') return preflight('GET, OPTIONS');
        requireMethod(event, ['GET', 'HEAD', 'OPTIONS']);
        const document = path === AUTHORIZATION_SERVER_METADATA_PATH ? authorizationServerMetadata(urls) : protectedResourceMetadata(urls);
        return oauthJson(200, document, { 'cache-control': 'public, max-age=300' });
      }
      const registration = /^\/oauth\/register\/([A-Za-z0-9_]+)$/.exec(path);
      if (registration) {
        if (method === 'OPTIONS') return preflight('GET, OPTIONS');
        requireMethod(event, ['GET', 'OPTIONS']);
        return await readRegistrationEndpoint(deps, event, urls, registration[1]!);
      }
      switch (path) {
        case '/oauth/authorize':
          requireMethod(event, ['GET', 'POST']);
          return method === 'GET' ? await authorizePage(deps, event, urls) : await authorizeDecision(deps, event, urls);
        case '/oauth/token':
        case '/oauth/register':
        case '/oauth/revoke': {
          if (method === 'OPTIONS') return preflight('POST, OPTIONS');
          if (method !== 'POST') throw methodNotAllowed(`${path} accepts POST`, ['POST', 'OPTIONS']);
          if (path === '/oauth/token') return await tokenEndpoint(deps, event, urls);
          if (path === '/oauth/register') return await registerEndpoint(deps, event, urls);
          return await revokeEndpoint(deps, event);
        }
        default:
          throw new ApiError('NOT_FOUND', `No such resource: ${event.rawPath}`);
      }
    } catch (error) {
      return oauthError(error, event);
    }
  };
}
