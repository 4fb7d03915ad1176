import { MCP_DEFAULT_SCOPES, MCP_SCOPES, OAuthRefusal, type McpScope, type OAuthErrorCode } from '@service/shared';
import { listAgents } from '../../domains/agents/agents';
import { recordAudit } from '../../domains/audit/audit';
import { resolveClient, type OAuthClient } from '../../domains/connections/clients';
import { issueAuthorizationCode, newConnectionId } from '../../domains/connections/grants';
import { redirectUriRegistered } from '../../domains/connections/redirect-uris';
import { membershipsOfUser } from '../../domains/people/members';
import { sessionFromCookieHeader, type ActiveSession } from '../../domains/people/sessions';
import type { Deps } from '../../infra/deps';
import { cookieHeaderOf } from '../../infra/http/cookies';
import { header, rawBody, type HttpEvent, type HttpResult } from '../../infra/http/event';
import { publicOrigin } from '../../infra/http/public-origin';
import { consentPage, errorPage, type AuthorizationRequest } from './consent-page';
import type { OAuthUrls } from './urls';

const MAX_WORKSPACES_SHOWN = 50;

const redirect = (location: string, status = 302): HttpResult => ({
  statusCode: status,
  headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
});

/** Back to the client with the outcome, always with `state` and the issuer (RFC 9207). */
function answerClient(request: AuthorizationRequest, urls: OAuthUrls, params: Record<string, string>): HttpResult {
  const target = new URL(request.redirect_uri);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  if (request.state !== undefined) target.searchParams.set('state', request.state);
  target.searchParams.set('iss', urls.issuer);
  return redirect(target.href, 303);
}

const clientError = (request: AuthorizationRequest, urls: OAuthUrls, error: OAuthErrorCode, description: string) =>
  answerClient(request, urls, { error, error_description: description });

type Checked = { ok: true; request: AuthorizationRequest; client: OAuthClient; requested: McpScope[] } | { ok: false; result: HttpResult };

/**
 * Validates an authorization request. Until the client and its redirect URI are known to match exactly, problems are
 * shown on our own page (never redirected: an open redirector otherwise); after that they go back to the client.
 */
async function checkRequest(deps: Deps, urls: OAuthUrls, params: Record<string, string | undefined>): Promise<Checked> {
  if (!params.client_id) return { ok: false, result: errorPage('The assistant sent no client_id.') };
  let client: OAuthClient;
  try {
    client = await resolveClient(deps, params.client_id);
  } catch (error) {
    if (error instanceof OAuthRefusal) return { ok: false, result: errorPage(error.message) };
    throw error;
  }
  if (!params.redirect_uri || !redirectUriRegistered(client.redirectUris, params.redirect_uri)) {
    return { ok: false, result: errorPage(`The redirect URI ${params.redirect_uri ?? '(none)'} is not one ${client.clientName} registered.`) };
  }
  const request: AuthorizationRequest = {
    client_id: params.client_id,
    redirect_uri: params.redirect_uri,
    ...(params.state !== undefined ? { state: params.state } : {}),
    code_challenge: params.code_challenge ?? '',
    code_challenge_method: params.code_challenge_method ?? '',
    scope: params.scope ?? MCP_DEFAULT_SCOPES.join(' '),
    ...(params.resource !== undefined ? { resource: params.resource } : {}),
    response_type: params.response_type ?? '',
  };
  if (request.response_type !== 'code') return { ok: false, result: clientError(request, urls, 'unsupported_response_type', 'response_type must be code') };
  if (request.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(request.code_challenge)) {
    return { ok: false, result: clientError(request, urls, 'invalid_request', 'PKCE is required: code_challenge with code_challenge_method S256') };
  }
  if (request.resource !== undefined && request.resource !== urls.resource) {
    return { ok: false, result: clientError(request, urls, 'invalid_target', `This authorization server issues tokens for ${urls.resource} only`) };
  }
  const asked = request.scope.split(' ').filter(Boolean);
  const unknown = asked.find((scope) => !(MCP_SCOPES as readonly string[]).includes(scope));
  if (unknown) return { ok: false, result: clientError(request, urls, 'invalid_scope', `Unknown scope ${unknown}; scopes: ${MCP_SCOPES.join(' ')}`) };
  const requested = MCP_SCOPES.filter((scope) => asked.includes(scope));
  if (requested.length === 0) return { ok: false, result: clientError(request, urls, 'invalid_scope', 'Ask for at least one scope') };
  return { ok: true, request, client, requested };
}

async function signedIn(deps: Deps, event: HttpEvent): Promise<ActiveSession | undefined> {
  return sessionFromCookieHeader(deps, cookieHeaderOf(event));
}

/** The sign-in page, coming back here afterwards (the dashboard follows return_to paths under /oauth/). */
function toSignIn(event: HttpEvent): HttpResult {
  const back = `${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
  return redirect(`/dashboard/?return_to=${encodeURIComponent(back)}`);
}

async function workspacesOf(deps: Deps, session: ActiveSession) {
  const memberships = (await membershipsOfUser(deps, session.userId)).slice(0, MAX_WORKSPACES_SHOWN);
  return Promise.all(
    memberships.map(async (membership) => ({
      id: membership.workspaceId,
      name: membership.workspaceName,
      role: membership.role,
      agents: (await listAgents(deps, membership.workspaceId)).map((agent) => ({ id: agent.id, name: agent.name, role: agent.role })),
    })),
  );
}

/** GET /oauth/authorize: checks the request, signs the person in (the dashboard), shows the consent page. */
export async function authorizePage(deps: Deps, event: HttpEvent, urls: OAuthUrls): Promise<HttpResult> {
  const checked = await checkRequest(deps, urls, event.queryStringParameters ?? {});
  if (!checked.ok) return checked.result;
  const session = await signedIn(deps, event);
  if (!session) return toSignIn(event);
  return consentPage({
    request: checked.request,
    client: { name: checked.client.clientName, uri: checked.client.clientUri, verifiedDomain: checked.client.verifiedDomain },
    userEmail: session.email,
    csrfToken: session.csrfToken,
    requested: checked.requested,
    workspaces: await workspacesOf(deps, session),
  });
}

/**
 * POST /oauth/authorize: the consent form. CSRF token of the session and the page's own Origin; then what the
 * person chose: one workspace they belong to, the ticked permissions among those requested, optionally some agents.
 */
export async function authorizeDecision(deps: Deps, event: HttpEvent, urls: OAuthUrls): Promise<HttpResult> {
  const form = new URLSearchParams(rawBody(event));
  const single = (name: string) => form.get(name) ?? undefined;
  const params = Object.fromEntries(
    ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'scope', 'resource', 'response_type'].map((name) => [name, single(name)]),
  );
  const session = await signedIn(deps, event);
  if (!session) return errorPage('Your session ended; start again from your assistant.');
  // The page's own origin: the dashboard's (DASHBOARD_ORIGIN on a custom domain, else the distribution the viewer used).
  if (header(event, 'origin') !== (deps.config.dashboardOrigin ?? publicOrigin(event, deps.config.publicHosts)) || single('csrf_token') !== session.csrfToken) {
    return errorPage('This form was not sent from the consent page (cross-site request refused).');
  }
  const checked = await checkRequest(deps, urls, params);
  if (!checked.ok) return checked.result;
  const { request, client, requested } = checked;
  if (single('decision') !== 'approve') return clientError(request, urls, 'access_denied', 'The person denied the connection');

  const workspaces = await workspacesOf(deps, session);
  const again = (problem: string) =>
    consentPage({
      request,
      client: { name: client.clientName, uri: client.clientUri, verifiedDomain: client.verifiedDomain },
      userEmail: session.email,
      csrfToken: session.csrfToken,
      requested,
      workspaces,
      problem,
    });
  const workspace = workspaces.find((candidate) => candidate.id === single('workspace_id'));
  if (!workspace) return again('Pick the workspace this assistant may reach.');
  const scopes = requested.filter((scope) => form.get(`perm_${scope.replace(':', '_')}`) === '1');
  if (!scopes.some((scope) => scope !== 'offline_access')) return again('Tick at least one permission, or deny.');
  const chosenAgents = form.getAll('agent');
  const foreign = chosenAgents.find((agentId) => !workspace.agents.some((agent) => agent.id === agentId));
  if (foreign) return again('Choose agents of the workspace you picked.');

  const connectionId = newConnectionId();
  const agentIds = chosenAgents.length ? chosenAgents : null;
  const code = await issueAuthorizationCode(deps, {
    clientId: client.clientId,
    redirectUri: request.redirect_uri,
    codeChallenge: request.code_challenge,
    approved: {
      id: connectionId,
      clientId: client.clientId,
      clientName: client.clientName,
      clientUri: client.clientUri,
      clientDomainVerified: client.verifiedDomain !== null,
      userId: session.userId,
      userEmail: session.email,
      workspaceId: workspace.id,
      scopes,
      agentIds,
      resource: urls.resource,
    },
  });
  // The consent is an access change of the workspace: in its audit log before the assistant gets the code.
  await recordAudit(deps, {
    workspaceId: workspace.id,
    actor: { type: 'user', id: session.userId, name: session.email },
    action: 'connection.approved',
    target: { type: 'connection', id: connectionId, name: client.clientName },
    after: { client_id: client.clientId, client_name: client.clientName, scopes, agent_ids: agentIds },
    sourceIp: event.requestContext.http.sourceIp,
    userAgent: header(event, 'user-agent') ?? null,
  });
  return answerClient(request, urls, { code });
}
