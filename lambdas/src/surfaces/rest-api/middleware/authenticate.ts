import { API_KEY_ROLE, ApiError, CSRF_HEADER, roleMay, SESSION_COOKIE, UUID_PATTERN, WORKSPACE_HEADER } from '@service/shared';
import type { Deps } from '../../../infra/deps';
import { knownWorkspaceOfKey } from '../../../domains/access/key-admission';
import { getWorkspaceCached } from '../../../domains/access/workspace-cache';
import { tokensUsedThisMonth } from '../../../domains/usage/usage';
import { apiState, type ApiRequest, type ApiRequestState } from '../context';
import type { Client } from '../endpoints/types';
import { hitRateLimit } from '../../../domains/access/rate-limit';
import { membershipOf } from '../../../domains/people/members';
import { sessionFromCookieHeader, type ActiveSession } from '../../../domains/people/sessions';
import { sameSecret } from '../../../domains/people/secrets';
import { cookieHeaderOf, isLoopbackHost, parseCookies, requestOrigin } from '../../../infra/http/cookies';
import { header } from '../../../infra/http/event';
import { admitKeyRequest, presentedApiKey, rateLimitHeaders } from './api-key';

/** Endpoints that start work billed in tokens: the token gate's read starts beside the key check. */
const TOKEN_GATED: ReadonlySet<string> = new Set(['agentsCommand']);

/**
 * The month's token use of the workspace a key authenticated for before, read while the key is checked (two round
 * trips at once instead of one after the other). Used only if the key turns out to belong to that workspace; an
 * unused read's failure is ignored.
 */
function readTokensAhead(deps: Deps, endpointName: string, secret: string): { workspaceId: string; used: Promise<number> } | undefined {
  const workspaceId = TOKEN_GATED.has(endpointName) ? knownWorkspaceOfKey(deps, secret) : undefined;
  if (!workspaceId) return undefined;
  const used = tokensUsedThisMonth(deps, workspaceId);
  used.catch(() => undefined);
  return { workspaceId, used };
}

/** The caller's whereabouts, for rate limits, links and cookies. */
function clientOf(deps: Deps, request: ApiRequest): Client {
  const { event } = request;
  const cookieHeader = cookieHeaderOf(event);
  const userAgent = header(event, 'user-agent');
  return {
    ip: event.requestContext.http.sourceIp,
    origin: requestOrigin(event, deps.config.dashboardOrigin),
    secureCookies: !isLoopbackHost(header(event, 'host')),
    ...(cookieHeader ? { cookieHeader } : {}),
    ...(userAgent ? { userAgent } : {}),
  };
}

const forbidden = (message: string) => new ApiError('FORBIDDEN', message);

/** A request made with a session that changes state must come from the dashboard itself: its origin and its CSRF token. */
function assertSameSiteRequest(request: ApiRequest, session: ActiveSession, client: Client): void {
  if (request.event.requestContext.http.method.toUpperCase() === 'GET') return;
  const origin = header(request.event, 'origin');
  if (!origin) throw forbidden('A request made with a session must carry an Origin header');
  if (origin !== client.origin) throw forbidden(`Requests made with a session must come from ${client.origin}, not ${origin}`);
  const token = header(request.event, CSRF_HEADER);
  if (!token) throw forbidden(`A request made with a session must carry ${CSRF_HEADER} (csrf_token from auth/session)`);
  if (!sameSecret(token, session.csrfToken)) throw forbidden(`${CSRF_HEADER} does not match this session; reload auth/session`);
}

/**
 * A public endpoint (signing in) needs no credential, but a page of another site must not drive it in a visitor's
 * browser (signing them into someone else's account): a browser's POST carries Origin, which must be our own.
 */
function assertNotCrossSite(request: ApiRequest, client: Client): void {
  const origin = header(request.event, 'origin');
  if (request.event.requestContext.http.method.toUpperCase() !== 'GET' && origin !== undefined && origin !== client.origin) {
    throw forbidden(`Sign-in requests must come from ${client.origin}, not ${origin}`);
  }
}

/** API key (under progressive delays for failures), per-key rate limit and plan gate. */
async function authenticateKey(deps: Deps, request: ApiRequest, state: ApiRequestState, secret: string): Promise<void> {
  const tokensAhead = readTokensAhead(deps, state.endpointName, secret);
  const { key, workspace, rate } = await admitKeyRequest(deps, secret, request.event.requestContext.http.sourceIp);
  Object.assign(state, { apiKey: key, workspace, rate, role: API_KEY_ROLE });
  if (tokensAhead?.workspaceId === workspace.id) state.tokensUsed = tokensAhead.used;
  if (state.endpoint.access === 'session') throw forbidden(`${state.endpoint.path} is for a signed-in person, not an API key`);
}

/** A session: CSRF checks on state changes, then the workspace of X-Workspace-Id, of which the person must be a member. */
async function authenticateSession(deps: Deps, request: ApiRequest, state: ApiRequestState, session: ActiveSession, client: Client): Promise<void> {
  assertSameSiteRequest(request, session, client);
  await hitRateLimit(deps, `session#${session.userId}`, deps.config.rateLimitPerMinute, undefined, 'requests');
  state.session = session;
  if (state.endpoint.access === 'session') return;
  const workspaceId = header(request.event, WORKSPACE_HEADER)?.trim();
  if (!workspaceId) throw new ApiError('VALIDATION_ERROR', `Send the workspace in the ${WORKSPACE_HEADER} header`, { field: WORKSPACE_HEADER });
  const membership = UUID_PATTERN.test(workspaceId) ? await membershipOf(deps, workspaceId, session.userId) : undefined;
  if (!membership) throw forbidden(`You are not a member of workspace ${workspaceId}`);
  const workspace = await getWorkspaceCached(deps, workspaceId);
  if (!workspace) throw forbidden(`You are not a member of workspace ${workspaceId}`);
  Object.assign(state, { workspace, role: membership.role });
}

/**
 * One API, two credentials: an API key (the workspace, acting as admin) or a dashboard session (the member, acting
 * with their role in the workspace they picked). Then the endpoint's access level: a permission the role must have
 * (403 FORBIDDEN), `public`, or `session`. Adds the RateLimit headers to every key-authenticated answer; for a
 * token-gated endpoint it hands the endpoint the month's token use, read ahead.
 */
export const authenticate = (deps: Deps) => ({
  before: async (request: ApiRequest) => {
    const state = apiState(request);
    const client = clientOf(deps, request);
    state.client = client;
    const { access } = state.endpoint;
    if (access === 'public') return assertNotCrossSite(request, client);
    const secret = presentedApiKey(request.event);
    if (secret) await authenticateKey(deps, request, state, secret);
    else {
      const session = await sessionFromCookieHeader(deps, client.cookieHeader);
      if (!session) {
        const expired = parseCookies(client.cookieHeader).has(SESSION_COOKIE);
        throw new ApiError(
          'API_KEY_REQUIRED',
          expired ? 'Your session has ended; sign in again' : 'Send your API key in the X-Service-Api-Key header, or sign in',
        );
      }
      await authenticateSession(deps, request, state, session, client);
    }
    if (access !== 'session' && !roleMay(state.role!, access)) {
      throw forbidden(
        `The ${state.role} role may not ${access === 'members' ? 'manage members' : access === 'manage' ? 'change settings, keys, webhooks, agents or grants' : access === 'audit' ? 'read the audit log' : access}; ask an ${access === 'members' ? 'owner' : access === 'audit' ? 'owner or admin' : 'admin'}`,
      );
    }
  },
  after: (request: ApiRequest) => {
    const rate = request.internal.api?.rate;
    if (rate && request.response) Object.assign(request.response.headers, rateLimitHeaders(rate));
  },
});
