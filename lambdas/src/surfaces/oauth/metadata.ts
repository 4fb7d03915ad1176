import { MCP_SCOPES } from '@service/shared';
import type { OAuthUrls } from './urls';

/** RFC 8414 authorization server metadata: S256 only, public clients (`none`), metadata documents and DCR, RFC 9207 `iss`. */
export const authorizationServerMetadata = (urls: OAuthUrls) => ({
  issuer: urls.issuer,
  authorization_endpoint: `${urls.issuer}/oauth/authorize`,
  token_endpoint: `${urls.issuer}/oauth/token`,
  registration_endpoint: `${urls.issuer}/oauth/register`,
  revocation_endpoint: `${urls.issuer}/oauth/revoke`,
  scopes_supported: [...MCP_SCOPES],
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['none'],
  revocation_endpoint_auth_methods_supported: ['none'],
  client_id_metadata_document_supported: true,
  authorization_response_iss_parameter_supported: true,
  service_documentation: `${urls.issuer}/dashboard/`,
});

/** RFC 9728 protected resource metadata of the MCP server. */
export const protectedResourceMetadata = (urls: OAuthUrls) => ({
  resource: urls.resource,
  authorization_servers: [urls.issuer],
  scopes_supported: [...MCP_SCOPES],
  bearer_methods_supported: ['header'],
  resource_name: 'AI agents of your workspace',
  resource_documentation: `${urls.issuer}/dashboard/`,
});
