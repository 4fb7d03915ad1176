/**
 * The MCP access point's contract (issue 13): the OAuth scopes a connection may be granted, what each allows, and the
 * redirect-URI schemes of known assistants. Read by the authorization server, the MCP server and the dashboard.
 */

/** Each permission is its own OAuth scope (listed in `scopes_supported`). */
export const MCP_SCOPES = ['agents:read', 'agents:ask', 'agents:act', 'conversations:reply', 'offline_access'] as const;
export type McpScope = (typeof MCP_SCOPES)[number];

/** What the consent page says about each scope. */
export const MCP_SCOPE_TEXT: Record<McpScope, { title: string; detail: string }> = {
  'agents:read': { title: 'Read agents and runs', detail: 'List the agents of the workspace and read their recent runs and results.' },
  'agents:ask': {
    title: 'Ask agents',
    detail: 'Give an agent an instruction and read its answer. The agent acts read-only: it may look things up, never change anything.',
  },
  'agents:act': {
    title: 'Take real-world actions',
    detail: 'Let an agent act with full autonomy when asked to: send e-mail from its own address, create contacts, events and tasks.',
  },
  'conversations:reply': {
    title: "Read and answer visitors' conversations",
    detail:
      "List the widget conversations of the agents (who handles them, the agent's summary) and reply to a visitor as you: a reply takes the conversation over from the agent.",
  },
  offline_access: { title: 'Stay connected', detail: 'Keep the connection working without signing in again, until you withdraw it.' },
};

/** The permissions an MCP key is made with: the consent page's, but offline_access (a key stays valid until revoked). */
export const MCP_KEY_SCOPES = ['agents:read', 'agents:ask', 'agents:act', 'conversations:reply'] as const satisfies readonly McpScope[];
export type McpKeyScope = (typeof MCP_KEY_SCOPES)[number];

/**
 * An MCP key (a restricted workspace key for headless agents, sent as the bearer on /mcp) begins with this, so that
 * it is told apart from an API key (`sk_live_`), which /mcp refuses.
 */
export const MCP_KEY_PREFIX = 'mcp_live_';

/** What a client gets when it asks for nothing in particular (and what the 401 challenge names). */
export const MCP_DEFAULT_SCOPES: readonly McpScope[] = ['agents:read', 'agents:ask', 'offline_access'];

/** Custom URI schemes of assistants whose native apps receive the authorization response on them. */
export const KNOWN_ASSISTANT_SCHEMES = ['cursor', 'vscode', 'vscode-insiders', 'windsurf', 'claude', 'zed'] as const;

/** The path of the MCP server and of its protected resource metadata (RFC 9728, path-aware and root). */
export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_METADATA_PATHS = ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'] as const;
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

/**
 * The header in which the CDN in front of the MCP function (cdk/lib/mcp.ts) names the host the viewer addressed: the
 * function's own Host is its Function URL's, and its public origin (issuer, resource, consent page) is the viewer's.
 */
export const VIEWER_HOST_HEADER = 'x-viewer-host';

/** OAuth error codes (RFC 6749 §5.2, RFC 6750 §3.1, RFC 7591 §3.2.2, RFC 8707 §2) the authorization and resource servers answer. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'invalid_target'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'temporarily_unavailable';

/**
 * A refusal of the OAuth protocol, named by its RFC code: what the connections domain raises where REST raises
 * DomainError (the OAuth endpoints answer `{error, error_description}`, not the envelope). No status, no header.
 */
export class OAuthRefusal extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    readonly details: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'OAuthRefusal';
  }
}
