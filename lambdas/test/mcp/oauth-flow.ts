import { createHash, randomBytes } from 'node:crypto';
import { sseJson } from '../support/sse';

/** An OAuth client of the platform's authorization server, over real HTTP, for tests that drive each step themselves. */
export interface Pkce {
  verifier: string;
  challenge: string;
}

export const newPkce = (): Pkce => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export async function registerClient(origin: string, redirectUris: string[], name = 'Test assistant') {
  const response = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: redirectUris,
      client_name: name,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export function authorizeUrl(
  origin: string,
  params: { clientId: string; redirectUri: string; pkce: Pkce; scope?: string; state?: string; resource?: string },
): string {
  const url = new URL(`${origin}/oauth/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', params.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('code_challenge', params.pkce.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('scope', params.scope ?? 'agents:read agents:ask offline_access');
  url.searchParams.set('state', params.state ?? 'state-1');
  url.searchParams.set('resource', params.resource ?? `${origin}/mcp`);
  return url.href;
}

const hiddenFields = (html: string): Record<string, string> =>
  Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1]!, decode(match[2]!)]));
const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * Reads the consent page with a signed-in cookie and submits it as a browser would (same Origin, the page's CSRF
 * token): the first workspace offered, the given permissions ticked. Answers the redirect back to the client.
 */
export async function consent(
  origin: string,
  url: string,
  cookie: string,
  choice: { permissions: string[]; agents?: string[]; workspaceId?: string; decision?: 'approve' | 'deny' },
): Promise<URL> {
  const page = await fetch(url, { headers: { cookie }, redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html.slice(0, 300)}`);
  const workspaceId = choice.workspaceId ?? /name="workspace_id" value="([^"]+)"/.exec(html)?.[1];
  const form = new URLSearchParams({ ...hiddenFields(html), decision: choice.decision ?? 'approve', ...(workspaceId ? { workspace_id: workspaceId } : {}) });
  for (const permission of choice.permissions) form.set(`perm_${permission.replace(':', '_')}`, '1');
  for (const agent of choice.agents ?? []) form.append('agent', agent);
  const answer = await fetch(`${origin}/oauth/authorize`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  const location = answer.headers.get('location');
  if (answer.status !== 303 || !location) throw new Error(`consent answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
  return new URL(location);
}

export async function tokenRequest(origin: string, params: Record<string, string>) {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** A JSON-RPC call to /mcp with a bearer token (2025-06-18 stateless, no initialize needed by the server). */
export async function mcpCall(origin: string, token: string | undefined, method: string, params: Record<string, unknown> = {}) {
  const response = await fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? JSON.parse(text) : sseJson(text).at(-1);
  return {
    status: response.status,
    headers: response.headers,
    body: json as { result?: Record<string, unknown>; error?: { message: string } } & Record<string, unknown>,
  };
}

/** The newest sign-in code mailed to `email` (the local platform's /dev/mail.json). */
export async function mailedCode(origin: string, email: string): Promise<string> {
  const { mail } = (await (await fetch(`${origin}/dev/mail.json`)).json()) as { mail: Array<{ to: string; subject: string }> };
  const code = mail.find((message) => message.to === email && /sign-in code/i.test(message.subject))?.subject.match(/\d{6}/)?.[0];
  if (!code) throw new Error(`no sign-in code for ${email} in /dev/mail.json`);
  return code;
}

/** Signs a person in by e-mailed code over the REST API (what the dashboard does) and answers the session cookie. */
export async function signIn(origin: string, email: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${origin}/en/api/v1/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(body) });
  const started = await post('auth/email/start', { email });
  if (started.status !== 200) throw new Error(`auth/email/start answered ${started.status}`);
  const verified = await post('auth/email/verify', { email, code: await mailedCode(origin, email) });
  const cookie = verified.headers.get('set-cookie')?.split(';')[0];
  if (verified.status !== 200 || !cookie) throw new Error(`auth/email/verify answered ${verified.status}: ${await verified.text()}`);
  return cookie;
}

/**
 * A connection made the way a browser would (DCR, sign-in by code, consent with `permissions`), for tests and benches
 * that need a token rather than the flow: answers the token endpoint's answer. `origin` is the address the client uses
 * (the token's resource is its /mcp); `scope` what the client asks for (the default scopes when omitted).
 */
export async function connectByConsent(origin: string, email: string, permissions: string[], name = 'Test assistant', scope?: string) {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const client = await registerClient(origin, [redirectUri], name);
  const pkce = newPkce();
  const back = await consent(
    origin,
    authorizeUrl(origin, { clientId: client.body.client_id!, redirectUri, pkce, ...(scope ? { scope } : {}) }),
    await signIn(origin, email),
    { permissions },
  );
  const tokens = await tokenRequest(origin, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    code_verifier: pkce.verifier,
    redirect_uri: redirectUri,
    client_id: client.body.client_id!,
    resource: `${origin}/mcp`,
  });
  if (tokens.status !== 200) throw new Error(`token endpoint answered ${tokens.status}: ${JSON.stringify(tokens.body)}`);
  return tokens.body as { access_token: string; refresh_token?: string; scope: string };
}
