import { MCP_DEFAULT_SCOPES, OAuthRefusal } from '@service/shared';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { Deps } from '../../infra/deps';
import { bearerToken } from '../../infra/http/credentials';
import { errorResult } from '../../infra/http/errors';
import { header, jsonResult, rawBody, type HttpEvent, type HttpResult } from '../../infra/http/event';
import { writeResult, type StreamingHandler } from '../../infra/http/streaming';
import { publicOrigin } from '../../infra/http/public-origin';
import { sendWebResponse, toWebRequest } from '../../infra/http/web-fetch';
import { oauthUrls, type OAuthUrls } from '../oauth/urls';
import type { McpAccess } from './access';
import { authorizeBearer, type Authorized } from './bearer';
import { registerRunCard } from './run-card/resource';
import { legacyTaskParam, TASKS_EXTENSION } from './tasks';
import { registerTools } from './tools';

const SERVER_INFO = { name: 'service-platform', title: 'AI agents of your workspace', version: '1.0.0' };
const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;
const FUNCTION_URL_HOST = /^[a-z0-9]+\.lambda-url\.[a-z0-9-]+\.on\.aws$/;

/** Host validation: the names this server is reached by (loopback, the configured resource's host, its Function URL in AWS). */
function hostAllowed(deps: Deps, host: string | undefined): boolean {
  if (host === undefined) return false;
  if (LOOPBACK_HOST.test(host)) return true;
  if (deps.config.mcpResourceUrl && new URL(deps.config.mcpResourceUrl).host === host) return true;
  return FUNCTION_URL_HOST.test(host);
}

/**
 * DNS rebinding protection: the Host must be one of this server's names (a rebound name is refused even when the
 * page's Origin matches it); no Origin (server-side clients) passes; a browser origin must be the server's own, one
 * of MCP_ALLOWED_ORIGINS, or, while the server itself is on a loopback address, another loopback origin.
 */
function originProblem(deps: Deps, event: HttpEvent): string | undefined {
  if (!hostAllowed(deps, header(event, 'host'))) return `Host ${header(event, 'host') ?? '(none)'} is not a name of this MCP server`;
  const origin = header(event, 'origin');
  if (origin === undefined) return undefined;
  const own = publicOrigin(event, deps.config.publicHosts);
  const canonical = deps.config.mcpResourceUrl ? new URL(deps.config.mcpResourceUrl).origin : undefined;
  if (origin === own || origin === canonical || deps.config.mcpAllowedOrigins.includes(origin)) return undefined;
  if (LOOPBACK.test(own) && LOOPBACK.test(origin)) return undefined;
  return `Origin ${origin} may not call this MCP server`;
}

function corsHeaders(event: HttpEvent): Record<string, string> {
  const origin = header(event, 'origin');
  if (origin === undefined) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'WWW-Authenticate, Mcp-Protocol-Version',
    vary: 'Origin',
  };
}

const preflight = (event: HttpEvent): HttpResult => ({
  statusCode: 204,
  headers: {
    ...corsHeaders(event),
    'access-control-allow-methods': 'POST, GET, DELETE, OPTIONS',
    'access-control-allow-headers': 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID',
    'access-control-max-age': '600',
  },
});

/** 401 with the RFC 6750 / RFC 9728 challenge that starts a client's discovery. */
function challenge(urls: OAuthUrls, event: HttpEvent, refusal?: OAuthRefusal): HttpResult {
  const params = [`resource_metadata="${urls.resourceMetadata}"`, `scope="${MCP_DEFAULT_SCOPES.join(' ')}"`];
  if (refusal) params.push(`error="${refusal.code}"`, `error_description="${refusal.message.replace(/["\\]/g, "'")}"`);
  const body = refusal
    ? { error: refusal.code, error_description: refusal.message }
    : { error: 'unauthorized', error_description: 'Connect this MCP server to your workspace: authorization is required' };
  return jsonResult(401, body, { 'www-authenticate': `Bearer ${params.join(', ')}`, ...corsHeaders(event) });
}

type Authenticated = Authorized | { refused: HttpResult };

async function authenticate(deps: Deps, event: HttpEvent, urls: OAuthUrls): Promise<Authenticated> {
  const token = bearerToken(event);
  if (!token) return { refused: challenge(urls, event) };
  try {
    return await authorizeBearer(deps, token, urls);
  } catch (error) {
    if (error instanceof OAuthRefusal) return { refused: challenge(urls, event, error) };
    throw error;
  }
}

/**
 * The MCP server at /mcp: streamable HTTP, stateless (a fresh server per request, no session id), every protocol
 * revision the v2 SDK serves (2025-06-18, 2025-11-25 through its stateless legacy path, 2026-07-28) from one handler.
 * Origin is validated and the bearer (a connection's access token, or an MCP key) verified before the SDK sees the
 * request; step-up (403 insufficient_scope) comes from each tool's scope challenge.
 */
export function createMcpSurfaceHandler(deps: Deps): StreamingHandler {
  const mcp = createMcpHandler(
    ({ authInfo, era }) => {
      const server = new McpServer(SERVER_INFO, {
        instructions:
          'Work with the AI agents of one workspace: list_agents, then ask_agent; long answers come back as a run id for get_run (or as a task, for clients that take tasks). A run that waits for approval is answered with approve_run or reject_run; cancel_run stops a run. With the conversations permission: list_conversations and reply_conversation answer visitors of the widget.',
        // The tools are the same for every caller and never change while it is connected (what a grant reaches
        // narrows the agents, not the tools), so no tools/list_changed is ever sent: none is promised either, and a
        // 2026-07-28 subscription asking for it is not acknowledged for it.
        // The one resource (the run card) is fixed too.
        // Tasks (ask_agent only): the 2026-07-28 extension, or the experimental tasks of 2025-11-25 (tools/call,
        // cancel; no tasks/list: a stateless server lists no tasks).
        capabilities: {
          tools: { listChanged: false },
          resources: { listChanged: false },
          ...(era === 'modern' ? { extensions: { [TASKS_EXTENSION]: {} } } : { tasks: { cancel: {}, requests: { tools: { call: {} } } } }),
        },
      });
      const access = authInfo?.extra?.access as McpAccess | undefined;
      if (access) registerTools(server, access, era);
      // The card's files come from this server's own origin (the resource's: a custom domain, or the address called).
      if (access && authInfo?.resource) registerRunCard(server, authInfo.resource.origin);
      return server;
    },
    { legacy: 'stateless' },
  );
  return async (event, sink) => {
    try {
      const method = event.requestContext.http.method.toUpperCase();
      const refusedOrigin = originProblem(deps, event);
      if (refusedOrigin) return writeResult(sink, jsonResult(403, { jsonrpc: '2.0', id: null, error: { code: -32000, message: refusedOrigin } }));
      if (method === 'OPTIONS') return writeResult(sink, preflight(event));
      const urls = oauthUrls(deps, event);
      const auth = await authenticate(deps, event, urls);
      if ('refused' in auth) return writeResult(sink, auth.refused);
      // A 2025-11-25 task augmentation rides in the body's params, which the SDK does not hand to a tool.
      const legacyTask = method === 'POST' ? legacyTaskParam(rawBody(event)) : undefined;
      if (legacyTask) auth.access.legacyTask = legacyTask;
      const response = await mcp.fetch(toWebRequest(event, sink.signal), { authInfo: auth.authInfo });
      await sendWebResponse(response, sink, corsHeaders(event));
      // One turn of the event loop first, so the answer's last bytes leave before the record's own work starts.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled(auth.access.afterAnswer.map((work) => work()));
    } catch (error) {
      writeResult(sink, errorResult(error, event.rawPath));
    }
  };
}
