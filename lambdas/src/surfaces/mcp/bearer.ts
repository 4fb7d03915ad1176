import { API_KEY_ROLE, OAuthRefusal } from '@service/shared';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { API_KEY_PREFIX } from '../../domains/access/api-keys';
import { verifyAccessToken } from '../../domains/connections/grants';
import { isMcpKey, verifyMcpKey } from '../../domains/connections/mcp-keys';
import { membershipOf } from '../../domains/people/members';
import type { Deps } from '../../infra/deps';
import type { OAuthUrls } from '../oauth/urls';
import type { McpAccess } from './access';

/** What an API key sent to /mcp is told (a header value: ASCII only). */
export const API_KEY_ON_MCP =
  'API keys (sk_live_...) do not open /mcp. Make an MCP key in the dashboard (Developers > MCP connections > MCP keys) or with POST /en/api/v1/connections/key_create, and send it as the bearer token';

export interface Authorized {
  authInfo: AuthInfo;
  access: McpAccess;
}

/**
 * The access a bearer token gives: an MCP key's (its permissions and agents, acting as admin within them), or a
 * connection's access token's (issued for this resource; the person's current role). Refusals are OAuthRefusal.
 */
export async function authorizeBearer(deps: Deps, token: string, urls: OAuthUrls): Promise<Authorized> {
  if (token.startsWith(API_KEY_PREFIX)) throw new OAuthRefusal('invalid_token', API_KEY_ON_MCP);
  return isMcpKey(token) ? authorizeKey(deps, token, urls) : authorizeConnection(deps, token, urls);
}

async function authorizeKey(deps: Deps, token: string, urls: OAuthUrls): Promise<Authorized> {
  const key = await verifyMcpKey(deps, token);
  const access: McpAccess = {
    deps,
    grant: { kind: 'key', id: key.id, workspaceId: key.workspaceId, agentIds: key.agentIds },
    scopes: key.scopes,
    role: API_KEY_ROLE,
    userId: null,
    afterAnswer: [],
  };
  return {
    access,
    authInfo: { token, clientId: key.id, scopes: key.scopes, resource: new URL(urls.resource), resourceMetadataUrl: urls.resourceMetadata, extra: { access } },
  };
}

async function authorizeConnection(deps: Deps, token: string, urls: OAuthUrls): Promise<Authorized> {
  const verified = await verifyAccessToken(deps, token, (workspaceId, userId) => membershipOf(deps, workspaceId, userId));
  const { connection } = verified;
  if (connection.resource !== urls.resource)
    throw new OAuthRefusal('invalid_token', `The token was issued for ${connection.resource}, not for ${urls.resource}`);
  if (!verified.alongside) throw new OAuthRefusal('invalid_token', 'The person who connected this assistant is no longer a member of the workspace');
  const access: McpAccess = {
    deps,
    grant: { kind: 'connection', id: connection.id, workspaceId: connection.workspaceId, agentIds: connection.agentIds },
    scopes: verified.scopes,
    role: verified.alongside.role,
    userId: connection.userId,
    afterAnswer: [],
  };
  const authInfo: AuthInfo = {
    token,
    clientId: connection.clientId,
    scopes: verified.scopes,
    expiresAt: Math.floor(Date.parse(verified.expiresAt) / 1000),
    resource: new URL(urls.resource),
    resourceMetadataUrl: urls.resourceMetadata,
    extra: { access },
  };
  return { authInfo, access };
}
