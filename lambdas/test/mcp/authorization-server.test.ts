import type { EndpointName } from '@service/shared';
import { describe, expect, it, vi } from 'vitest';
import { failStoreOnce } from '../support/faults';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { sseJson } from '../support/sse';
import { authorizeUrl, consent, mcpCall, newPkce, registerClient, signIn, tokenRequest, type Pkce } from './oauth-flow';

const REDIRECT = 'http://127.0.0.1:9/callback';
let clockOffsetMs = 0;

describe('the authorization server and the MCP resource server', () => {
  const ctx = usePlatform({ now: () => new Date(Date.now() + clockOffsetMs) });
  let cookie: string;
  const origin = () => ctx.platform.url;
  const resource = () => `${origin()}/mcp`;

  let shared: string | undefined;
  /** One registered client for the tests that only need some client (registrations are rate limited per address). */
  const sharedClient = async () => (shared ??= await newClient());

  async function newClient(redirectUris = [REDIRECT]) {
    const registered = await registerClient(origin(), redirectUris);
    expect(registered.status).toBe(201);
    return registered.body.client_id!;
  }

  async function authorizationCode(
    clientId: string,
    options: { permissions?: string[]; agents?: string[]; scope?: string } = {},
  ): Promise<{ code: string; pkce: Pkce }> {
    cookie ??= await signIn(origin(), ctx.platform.demo.ownerEmail);
    const pkce = newPkce();
    const back = await consent(
      origin(),
      authorizeUrl(origin(), { clientId, redirectUri: REDIRECT, pkce, ...(options.scope ? { scope: options.scope } : {}) }),
      cookie,
      {
        permissions: options.permissions ?? ['agents:read', 'agents:ask', 'offline_access'],
        ...(options.agents ? { agents: options.agents } : {}),
      },
    );
    expect(back.searchParams.get('iss')).toBe(origin());
    expect(back.searchParams.get('state')).toBe('state-1');
    return { code: back.searchParams.get('code')!, pkce };
  }

  const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
    tokenRequest(origin(), {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
      resource: resource(),
      ...extra,
    });

  async function connect(options: { permissions?: string[]; agents?: string[]; clientId?: string } = {}) {
    const clientId = options.clientId ?? (await newClient());
    const { code, pkce } = await authorizationCode(clientId, options);
    const tokens = await exchange(clientId, code, pkce.verifier);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    return { clientId, ...tokens.body } as { clientId: string; access_token: string; refresh_token: string; scope: string };
  }

  it('publishes its metadata: S256 only, public clients, metadata documents, each permission a scope', async () => {
    const as = (await (await fetch(`${origin()}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: origin(),
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ['agents:read', 'agents:ask', 'agents:act', 'conversations:reply', 'offline_access'],
    });
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      expect(await (await fetch(`${origin()}${path}`)).json()).toMatchObject({ resource: resource(), authorization_servers: [origin()] });
    }
  });

  it('answers 401 with the resource metadata and the scopes to ask for', async () => {
    const answer = await mcpCall(origin(), undefined, 'tools/list');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${origin()}/.well-known/oauth-protected-resource/mcp", scope="agents:read agents:ask offline_access"`,
    );
    const bad = await mcpCall(origin(), 'mcp_at_not-a-token', 'tools/list');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('refuses a wrong PKCE verifier', async () => {
    const clientId = await sharedClient();
    const { code } = await authorizationCode(clientId);
    const answer = await exchange(clientId, code, newPkce().verifier);
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a reused code and revokes the connection the first use started', async () => {
    const clientId = await newClient();
    const { code, pkce } = await authorizationCode(clientId);
    const first = await exchange(clientId, code, pkce.verifier);
    expect(first.status).toBe(200);
    expect((await mcpCall(origin(), first.body.access_token, 'tools/call', { name: 'list_agents', arguments: {} })).status).toBe(200);
    expect(await exchange(clientId, code, pkce.verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await mcpCall(origin(), first.body.access_token, 'tools/call', { name: 'list_agents', arguments: {} })).status).toBe(401);
  });

  it('refuses a redirect URI that is not the registered one, without redirecting to it', async () => {
    const clientId = await sharedClient();
    const page = await fetch(authorizeUrl(origin(), { clientId, redirectUri: 'http://127.0.0.1:9/other', pkce: newPkce() }), { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('is not one Test assistant registered');
    const { code, pkce } = await authorizationCode(clientId);
    expect(await exchange(clientId, code, pkce.verifier, { redirect_uri: 'http://127.0.0.1:9/other' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await registerClient(origin(), ['http://evil.example/callback'])).body).toMatchObject({ error: 'invalid_redirect_uri' });
    expect(
      (await registerClient(origin(), ['cursor://anysphere.cursor-retrieval/oauth/callback', 'https://app.example/cb', 'http://localhost:7777/cb'])).status,
    ).toBe(201);
  });

  it('refuses a token for another resource (invalid_target), at the authorization and at the token endpoint', async () => {
    const clientId = await sharedClient();
    const page = await fetch(authorizeUrl(origin(), { clientId, redirectUri: REDIRECT, pkce: newPkce(), resource: 'https://other.example/mcp' }), {
      redirect: 'manual',
    });
    expect(page.status).toBe(303);
    expect(new URL(page.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
    const { code, pkce } = await authorizationCode(clientId);
    expect(await exchange(clientId, code, pkce.verifier, { resource: 'https://other.example/mcp' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_target' },
    });
    const again = await authorizationCode(clientId);
    const withoutResource = await tokenRequest(origin(), {
      grant_type: 'authorization_code',
      code: again.code,
      code_verifier: again.pkce.verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(withoutResource).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('refuses an expired access token, and a refresh brings a new one', async () => {
    const connection = await connect();
    clockOffsetMs = 16 * 60_000;
    try {
      const expired = await mcpCall(origin(), connection.access_token, 'tools/call', { name: 'list_agents', arguments: {} });
      expect(expired.status).toBe(401);
      expect(expired.headers.get('www-authenticate')).toContain('The access token expired');
      const refreshed = await tokenRequest(origin(), {
        grant_type: 'refresh_token',
        refresh_token: connection.refresh_token,
        client_id: connection.clientId,
        resource: resource(),
      });
      expect(refreshed.status).toBe(200);
      expect((await mcpCall(origin(), refreshed.body.access_token, 'tools/call', { name: 'list_agents', arguments: {} })).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('rotates refresh tokens; a reused one revokes the whole connection', async () => {
    const connection = await connect();
    const refresh = (token: string) =>
      tokenRequest(origin(), { grant_type: 'refresh_token', refresh_token: token, client_id: connection.clientId, resource: resource() });
    const second = await refresh(connection.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(connection.refresh_token);
    expect(await refresh(connection.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await mcpCall(origin(), second.body.access_token, 'tools/call', { name: 'list_agents', arguments: {} })).status).toBe(401);
    expect(await refresh(second.body.refresh_token!)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('keeps the connection when a refresh dies while writing the new tokens (a crash there): the retry works', async () => {
    const connection = await connect();
    const refresh = (token: string) =>
      tokenRequest(origin(), { grant_type: 'refresh_token', refresh_token: token, client_id: connection.clientId, resource: resource() });
    // The store fails the write of the new refresh token, once: the request dies in the middle of the rotation.
    const restore = failStoreOnce(
      ctx.platform.deps,
      (command) => command.input?.TableName === ctx.platform.deps.store.table('oauthTokens') && command.input.Item?.kind === 'refresh',
    );
    try {
      expect((await refresh(connection.refresh_token)).status).toBe(500);
    } finally {
      restore();
    }
    const retried = await refresh(connection.refresh_token);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect((await mcpCall(origin(), retried.body.access_token!, 'tools/call', { name: 'list_agents', arguments: {} })).status).toBe(200);
  });

  it('refuses a client metadata document at a private or loopback address', async () => {
    for (const clientId of [
      'https://10.0.0.1/client.json',
      'https://127.0.0.1:8443/client.json',
      'https://localhost/oauth/client.json',
      'https://169.254.169.254/latest/meta-data',
    ]) {
      const page = await fetch(authorizeUrl(origin(), { clientId, redirectUri: REDIRECT, pkce: newPkce() }), { redirect: 'manual' });
      expect(page.status, clientId).toBe(400);
      expect(await page.text()).toMatch(/Client metadata document refused: url points to a (private|loopback|link-local)/);
    }
  });

  it('refuses a consent form sent from another origin or without the CSRF token', async () => {
    const clientId = await sharedClient();
    cookie ??= await signIn(origin(), ctx.platform.demo.ownerEmail);
    const page = await fetch(authorizeUrl(origin(), { clientId, redirectUri: REDIRECT, pkce: newPkce() }), { headers: { cookie } });
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).not.toMatch(/checked/);
    const fields = Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((match) => [match[1]!, match[2]!.replace(/&amp;/g, '&')]));
    const post = (headers: Record<string, string>, form: Record<string, string>) =>
      fetch(`${origin()}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form).toString(),
      });
    const approve = { ...fields, decision: 'approve', perm_agents_read: '1' };
    expect((await post({ origin: 'https://evil.example' }, approve)).status).toBe(400);
    expect((await post({ origin: origin() }, { ...approve, csrf_token: 'forged' })).status).toBe(400);
  });

  it('sends a person who is not signed in to the dashboard sign-in, coming back to the consent page', async () => {
    const clientId = await sharedClient();
    const url = authorizeUrl(origin(), { clientId, redirectUri: REDIRECT, pkce: newPkce() });
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const location = new URL(page.headers.get('location')!, origin());
    expect(location.pathname).toBe('/dashboard/');
    expect(location.searchParams.get('return_to')).toBe(url.slice(origin().length));
  });

  it('narrows a connection to chosen agents and keeps it to its permissions; runs record their source and act for the person’s role', async () => {
    const [ada, leo] = ctx.platform.demo.agentIds;
    const connection = await connect({ permissions: ['agents:read', 'agents:ask'], agents: [leo!] });
    expect(connection.refresh_token).toBeUndefined();
    const listed = await mcpCall(origin(), connection.access_token, 'tools/call', { name: 'list_agents', arguments: {} });
    expect((listed.body.result!.structuredContent as { agents: { id: string }[] }).agents.map((agent) => agent.id)).toEqual([leo]);
    const other = await mcpCall(origin(), connection.access_token, 'tools/call', { name: 'ask_agent', arguments: { agent_id: ada, instruction: 'Hello' } });
    expect(other.body.result).toMatchObject({ isError: true });
    const asked = await mcpCall(origin(), connection.access_token, 'tools/call', {
      name: 'ask_agent',
      arguments: { agent_id: leo, instruction: 'Hello', wait_seconds: 20 },
    });
    const run = asked.body.result!.structuredContent as { run_id: string; status: string; autonomy: string };
    expect(run).toMatchObject({ status: 'completed', autonomy: 'read_only' });
    const stored = await ctx.platform.deps.store.doc.send(
      new (await import('@aws-sdk/lib-dynamodb')).GetCommand({ TableName: ctx.platform.deps.store.table('runs'), Key: { runId: run.run_id } }),
    );
    // The demo owner connected: the run acts for the owner role (its grants decide the agent's tools).
    expect(stored.Item).toMatchObject({ source: 'mcp', connectionId: expect.stringMatching(/^mcn_/), role: 'owner' });
    const act = await mcpCall(origin(), connection.access_token, 'tools/call', {
      name: 'ask_agent',
      arguments: { agent_id: leo, instruction: 'Send the mail', allow_actions: true },
    });
    expect(act.status).toBe(403);
    expect(act.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="agents:read agents:ask agents:act"/);
  });

  it('lists connections with their use, keeps recent calls, and a withdrawal stops the very next request and the refresh token', async () => {
    const connection = await connect();
    await mcpCall(origin(), connection.access_token, 'tools/call', { name: 'list_agents', arguments: {} });
    const call = async (name: EndpointName, path: string, options: Parameters<typeof ctx.api>[1] = {}) => {
      const response = await ctx.api(path, options);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(openApiProblems(name, response as ApiResponse<unknown>)).toEqual([]);
      return response.body.data as Record<string, unknown>;
    };
    type Listed = { mcp_url: string; connections: Array<{ id: string; calls: number; last_used_at: string | null; user_email: string }> };
    // The call is recorded once its answer is sent: wait for the record rather than race it.
    const listed = await vi.waitFor(async () => {
      const answer = (await call('connectionsList', 'connections/list')) as Listed;
      if (!answer.connections.some((candidate) => candidate.calls === 1)) throw new Error('the call is not recorded yet');
      return answer;
    });
    expect(listed.mcp_url).toBe(resource());
    const mine = listed.connections.find((candidate) => candidate.calls === 1 && candidate.last_used_at !== null)!;
    expect(mine).toMatchObject({ user_email: ctx.platform.demo.ownerEmail, calls: 1 });
    const calls = (await call('connectionsCalls', 'connections/calls', { query: { connection_id: mine.id } })) as {
      calls: Array<{ tool: string; outcome: string }>;
    };
    expect(calls.calls).toEqual([expect.objectContaining({ tool: 'list_agents', outcome: 'ok' })]);
    await call('connectionsWithdraw', 'connections/withdraw', { body: { connection_id: mine.id } });
    expect((await mcpCall(origin(), connection.access_token, 'tools/call', { name: 'list_agents', arguments: {} })).status).toBe(401);
    expect(
      await tokenRequest(origin(), {
        grant_type: 'refresh_token',
        refresh_token: connection.refresh_token,
        client_id: connection.clientId,
        resource: resource(),
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const remaining = (await call('connectionsWithdrawAll', 'connections/withdraw_all', { body: {} })) as { withdrawn: number };
    expect(remaining.withdrawn).toBeGreaterThan(0);
    expect(((await call('connectionsList', 'connections/list')) as { connections: unknown[] }).connections).toEqual([]);
  });

  it('revokes tokens (RFC 7009): an access token stops at once, a refresh token ends its connection', async () => {
    const clientId = await sharedClient();
    const first = await connect({ clientId });
    const revoke = (token: string) =>
      fetch(`${origin()}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: clientId }).toString(),
      });
    expect((await revoke(first.access_token)).status).toBe(200);
    expect((await mcpCall(origin(), first.access_token, 'tools/call', { name: 'list_agents', arguments: {} })).status).toBe(401);
    const refreshed = await tokenRequest(origin(), {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
      resource: resource(),
    });
    expect(refreshed.status).toBe(200);
    expect((await revoke(refreshed.body.refresh_token!)).status).toBe(200);
    expect((await mcpCall(origin(), refreshed.body.access_token, 'tools/call', { name: 'list_agents', arguments: {} })).status).toBe(401);
    expect((await revoke('mcp_rt_unknown')).status).toBe(200);
  });

  it('reads a registration back with its registration access token only', async () => {
    const registered = await registerClient(origin(), [REDIRECT], 'Readable');
    const read = (token?: string) => fetch(registered.body.registration_client_uri!, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    expect((await read()).status).toBe(401);
    expect((await read('mcp_reg_wrong')).status).toBe(401);
    const answer = await read(registered.body.registration_access_token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ client_id: registered.body.client_id, client_name: 'Readable', redirect_uris: [REDIRECT] });
  });

  it('answers with the run id when the wait ends first, with progress notifications while it waits', async () => {
    const connection = await connect({ clientId: await sharedClient() });
    await ctx.platform.queue.stop();
    try {
      const response = await fetch(`${origin()}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: `Bearer ${connection.access_token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: {
            name: 'ask_agent',
            arguments: { agent_id: ctx.agentId, instruction: 'Summarise the week', wait_seconds: 1 },
            _meta: { progressToken: 'p1' },
          },
        }),
      });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const messages = sseJson<Record<string, unknown>>(await response.text());
      expect(messages.filter((message) => message.method === 'notifications/progress').length).toBeGreaterThan(0);
      const result = messages.find((message) => message.id === 7)!.result as {
        structuredContent: { run_id: string; status: string; done: boolean };
        content: { text: string }[];
      };
      expect(result.structuredContent).toMatchObject({ status: 'queued', done: false });
      expect(result.content[0]!.text).toContain('call get_run with this run_id');
    } finally {
      ctx.platform.queue.start();
    }
  });
});
