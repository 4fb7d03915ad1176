import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type ClientOptions } from '@modelcontextprotocol/client';
import type { EndpointName } from '@service/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { mcpCall } from './oauth-flow';

interface McpKey {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  scopes: string[];
  agent_ids: string[] | null;
  created_by: string;
  calls: number;
  last_used_at: string | null;
  revoked_at: string | null;
}
type StructuredAgents = { agents: Array<{ id: string }> };

/**
 * A headless agent (CI, a server-side assistant, a script) on /mcp with an MCP key made over the REST API: the
 * official MCP SDK client sends it as a static bearer through its auth provider option, over real HTTP.
 */
describe('MCP keys: the bearer of a headless agent on /mcp', () => {
  const ctx = usePlatform();
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  /** A REST call checked against the contract's OpenAPI document. */
  async function rest<T>(name: EndpointName, path: string, options: Parameters<typeof ctx.api>[1] = {}, status = 200): Promise<T> {
    const response = await ctx.api<T>(path, options);
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(openApiProblems(name, response as ApiResponse<unknown>)).toEqual([]);
    return response.body.data;
  }

  const makeKey = (body: { name: string; scopes: string[]; agent_ids?: string[] }) =>
    rest<{ key: McpKey; secret: string }>('connectionsKeyCreate', 'connections/key_create', { body }, 201);

  async function connect(secret: string, options: ClientOptions = {}): Promise<Client> {
    const client = new Client({ name: 'ci-agent', version: '1.0.0' }, options);
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', ctx.platform.url), { authProvider: { token: async () => secret } }));
    return client;
  }

  const agentsOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.structuredContent as StructuredAgents).agents.map((agent) => agent.id).sort();

  it('lists and calls tools with a key, audits its calls, and refuses the next call once the key is revoked', async () => {
    const { key, secret } = await makeKey({ name: 'CI', scopes: ['agents:read', 'agents:ask'] });
    expect(secret).toMatch(/^mcp_live_[0-9A-Za-z]{40}$/);
    expect(key).toMatchObject({ name: 'CI', scopes: ['agents:read', 'agents:ask'], agent_ids: null, created_by: 'API key', calls: 0, revoked_at: null });
    expect(`${key.prefix}…${key.last4}`).toBe(`${secret.slice(0, 13)}…${secret.slice(-4)}`);

    const client = await connect(secret);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'approve_run',
      'ask_agent',
      'cancel_run',
      'get_run',
      'list_agents',
      'list_conversations',
      'list_runs',
      'reject_run',
      'reply_conversation',
    ]);
    expect(agentsOf(await client.callTool({ name: 'list_agents', arguments: {} }))).toEqual([...ctx.platform.demo.agentIds].sort());
    const asked = await client.callTool({ name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction: 'Hello', wait_seconds: 20 } });
    const run = asked.structuredContent as { run_id: string; status: string; autonomy: string };
    expect(run).toMatchObject({ status: 'completed', autonomy: 'read_only' });
    // The run names the key as a connection's runs name the connection, and acts as admin (as an API key does).
    const stored = await ctx.platform.deps.store.doc.send(new GetCommand({ TableName: ctx.platform.deps.store.table('runs'), Key: { runId: run.run_id } }));
    expect(stored.Item).toMatchObject({ source: 'mcp', connectionId: key.id, role: 'admin' });

    // The calls are recorded once their answers are sent: wait for the records rather than race them.
    const listed = await vi.waitFor(async () => {
      const { keys } = await rest<{ keys: McpKey[] }>('connectionsKeyList', 'connections/key_list');
      const mine = keys.find((candidate) => candidate.id === key.id)!;
      if (mine.calls < 2) throw new Error('the calls are not recorded yet');
      return { keys, mine };
    });
    expect(listed.mine).toMatchObject({ calls: 2, last_used_at: expect.any(String) });
    expect(JSON.stringify(listed.keys)).not.toContain(secret);
    const { calls } = await rest<{ calls: Array<{ tool: string; agent_id: string | null; run_id: string | null; outcome: string }> }>(
      'connectionsKeyCalls',
      'connections/key_calls',
      {
        query: { key_id: key.id },
      },
    );
    expect(calls).toEqual([
      expect.objectContaining({ tool: 'ask_agent', agent_id: ctx.agentId, run_id: run.run_id, outcome: 'ok' }),
      expect.objectContaining({ tool: 'list_agents', outcome: 'ok' }),
    ]);

    const { key: revoked } = await rest<{ key: McpKey }>('connectionsKeyRevoke', 'connections/key_revoke', { body: { key_id: key.id } });
    expect(revoked).toMatchObject({ id: key.id, revoked_at: expect.any(String), calls: 2 });
    // The very next call, on the client that was just served (this process verified the key under a second ago).
    await expect(client.callTool({ name: 'list_agents', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    const refused = await mcpCall(ctx.platform.url, secret, 'tools/list');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token", error_description="The MCP key was revoked"/);
    const again = await rest<{ key: McpKey }>('connectionsKeyRevoke', 'connections/key_revoke', { body: { key_id: key.id } });
    expect(again.key.revoked_at).toBe(revoked.revoked_at);
  });

  it('refuses an API key on /mcp with the 401 challenge, saying how to make an MCP key', async () => {
    const answer = await mcpCall(ctx.platform.url, ctx.key, 'tools/list');
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
    expect(challenge).toMatch(/error="invalid_token"/);
    expect(challenge).toMatch(/error_description="API keys \(sk_live_\.\.\.\) do not open \/mcp\. Make an MCP key .*connections\/key_create/);
    expect(answer.body).toMatchObject({ error: 'invalid_token', error_description: expect.stringContaining('Make an MCP key') });
    await expect(connect(ctx.key)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('answers the scope challenge for the permissions a key was not made with', async () => {
    const { secret } = await makeKey({ name: 'Reader', scopes: ['agents:read'] });
    const client = await connect(secret);
    expect(agentsOf(await client.callTool({ name: 'list_agents', arguments: {} }))).toHaveLength(ctx.platform.demo.agentIds.length);
    await expect(client.callTool({ name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction: 'Hello' } })).rejects.toThrow(
      'Insufficient scope: required "agents:read agents:ask"',
    );
    const ask = await mcpCall(ctx.platform.url, secret, 'tools/call', { name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction: 'Hello' } });
    expect(ask.status).toBe(403);
    const challenge = ask.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/error="insufficient_scope"/);
    expect(challenge).toMatch(/scope="agents:read agents:ask"/);
    expect(challenge).toMatch(/this MCP key does not have it: make a key that does/);

    const { secret: asker } = await makeKey({ name: 'Asker', scopes: ['agents:ask'] });
    const act = await mcpCall(ctx.platform.url, asker, 'tools/call', {
      name: 'ask_agent',
      arguments: { agent_id: ctx.agentId, instruction: 'Send the mail', allow_actions: true },
    });
    expect(act.status).toBe(403);
    expect(act.headers.get('www-authenticate')).toMatch(/scope="agents:ask agents:act"/);
    expect((await mcpCall(ctx.platform.url, asker, 'tools/call', { name: 'list_runs', arguments: { agent_id: ctx.agentId } })).status).toBe(403);
  });

  it('reaches only the agents a key was made for', async () => {
    const [chosen, other] = ctx.platform.demo.agentIds as [string, string];
    const { key, secret } = await makeKey({ name: 'One agent', scopes: ['agents:read', 'agents:ask'], agent_ids: [chosen] });
    expect(key.agent_ids).toEqual([chosen]);
    const client = await connect(secret);
    expect(agentsOf(await client.callTool({ name: 'list_agents', arguments: {} }))).toEqual([chosen]);
    const elsewhere = await client.callTool({ name: 'list_runs', arguments: { agent_id: other } });
    expect(elsewhere).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: `This MCP key does not reach agent ${other}; it was made for other agents` }],
    });
    expect((await client.callTool({ name: 'ask_agent', arguments: { agent_id: other, instruction: 'Hello', wait_seconds: 0 } })).isError).toBe(true);
  });

  it('promises no tools/list_changed: not in its capabilities, not acknowledged on a 2026-07-28 subscription', async () => {
    const { secret } = await makeKey({ name: 'Listener', scopes: ['agents:read'] });
    const legacy = await connect(secret);
    expect(legacy.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    const modern = await connect(secret, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    expect(modern.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    const subscription = await modern.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({});
    await subscription.close();
  });

  it('validates what a key is made with', async () => {
    const refused = async (body: unknown, status: number, code: string, field: string) => {
      const answer = await ctx.api('connections/key_create', { body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.error).toEqual({ code, field });
    };
    await refused({ name: 'x', scopes: [] }, 400, 'VALIDATION_ERROR', 'scopes');
    await refused({ name: 'x', scopes: ['offline_access'] }, 400, 'VALIDATION_ERROR', 'scopes.0');
    await refused({ name: 'x', scopes: ['agents:read', 'agents:read'] }, 400, 'VALIDATION_ERROR', 'scopes');
    await refused({ name: 'x', scopes: ['agents:read'], agent_ids: [] }, 400, 'VALIDATION_ERROR', 'agent_ids');
    await refused({ name: 'x', scopes: ['agents:read'], agent_ids: ['00000000-0000-4000-8000-000000000000'] }, 404, 'AGENT_NOT_FOUND', 'agent_ids');
    await refused({ scopes: ['agents:read'] }, 400, 'VALIDATION_ERROR', 'name');
    const unknown = await ctx.api('connections/key_revoke', { body: { key_id: 'mck_00000000000000000000' } });
    expect(unknown.body.error).toEqual({ code: 'NOT_FOUND', field: 'key_id' });
    expect((await mcpCall(ctx.platform.url, `mcp_live_${'0'.repeat(40)}`, 'tools/list')).headers.get('www-authenticate')).toMatch(
      /error="invalid_token", error_description="Unknown MCP key"/,
    );
  });
});
