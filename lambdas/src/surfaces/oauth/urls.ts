import { AUTHORIZATION_SERVER_METADATA_PATH, MCP_PATH, PROTECTED_RESOURCE_METADATA_PATHS } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { HttpEvent } from '../../infra/http/event';
import { publicOrigin } from '../../infra/http/public-origin';

export interface OAuthUrls {
  /** The canonical URL of the MCP server: the only audience (RFC 8707 resource) tokens are issued for. */
  resource: string;
  /** The authorization server's issuer (RFC 8414, RFC 9207): the origin of the resource. */
  issuer: string;
  /** The protected resource metadata (RFC 9728) the 401 challenge points at. */
  resourceMetadata: string;
  authorizationServerMetadata: string;
}

/**
 * Where the MCP server and its authorization server live: MCP_RESOURCE_URL when set (a custom domain); else the
 * origin the viewer addressed (in AWS the dashboard's distribution in front of the MCP function; locally the address
 * and port the request was sent to).
 */
export function oauthUrls(deps: Deps, event: HttpEvent): OAuthUrls {
  const resource = deps.config.mcpResourceUrl ?? `${publicOrigin(event, deps.config.publicHosts)}${MCP_PATH}`;
  const issuer = new URL(resource).origin;
  return {
    resource,
    issuer,
    resourceMetadata: `${issuer}${PROTECTED_RESOURCE_METADATA_PATHS[0]}`,
    authorizationServerMetadata: `${issuer}${AUTHORIZATION_SERVER_METADATA_PATH}`,
  };
}
