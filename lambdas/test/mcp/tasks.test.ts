import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { contactsNamed, until } from '../support/runs';
import { sseJson } from '../support/sse';

type Rpc = { result?: Record<string, unknown>; error?: { code: number; message: string } };
type RunOut = { run_id: string; status: string; autonomy: string; pending_action: { capability: string } | null };

const adding = (name: string) => `Please add ${name} (${name.split(' ')[0]!.toLowerCase()}@example.com) to my contacts.`;
const TASKS = 'io.modelcontextprotocol/tasks';

/**
 * ask_agent as an MCP task, approvals and stops from the MCP door. The task methods go over real HTTP as JSON-RPC:
 * the official client (2.4) has no task runtime of its own (task methods are typed out of its request surface); the
 * tools go through the official client with an MCP key as its bearer.
 */
describe('MCP: runs as tasks, approvals and stops', () => {
  const ctx = usePlatform({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  const makeKey = async (scopes: string[]) => {
    const response = await ctx.api<{ secret: string }>('connections/key_create', { body: { name: `tasks ${scopes.join(' ')}`, scopes } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data.secret;
  };

  async function connect(secret: string): Promise<Client> {
    const client = new Client({ name: 'tasks-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', ctx.platform.url), { authProvider: { token: async () => secret } }));
    return client;
  }

  let id = 0;
  /** One JSON-RPC request; `modern`: 2026-07-28 with its envelope (declaring the tasks extension), else 2025-11-25. */
  async function rpc(secret: string, era: 'modern' | 'legacy', method: string, params: Record<string, unknown>): Promise<{ status: number; body: Rpc }> {
    const name = (params.name ?? params.taskId) as string | undefined;
    const modern = era === 'modern';
    const body = {
      jsonrpc: '2.0',
      id: (id += 1),
      method,
      params: modern
        ? {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '1.0.0' },
              'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} }, elicitation: { form: {} } },
            },
          }
        : params,
    };
    const response = await fetch(new URL('/mcp', ctx.platform.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${secret}`,
        'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
        ...(modern ? { 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : sseJson(text).at(-1)) as Rpc };
  }

  const ask = (secret: string, era: 'modern' | 'legacy', args: Record<string, unknown>) =>
    rpc(secret, era, 'tools/call', {
      name: 'ask_agent',
      arguments: { agent_id: ctx.agentId, ...args },
      ...(era === 'legacy' ? { task: { ttl: 60_000 } } : {}),
    });

  it('2026-07-28: a client declaring the tasks extension gets a task; tasks/get follows it to the completed tool result', async () => {
    const secret = await makeKey(['agents:read', 'agents:ask']);
    const created = await ask(secret, 'modern', { instruction: 'Hello' });
    expect(created.body.result, JSON.stringify(created.body)).toMatchObject({
      resultType: 'task',
      taskId: expect.stringMatching(/^cmd_/),
      status: 'working',
      ttlMs: null,
    });
    expect(created.body.result).not.toHaveProperty('structuredContent');
    const taskId = created.body.result!.taskId as string;
    const done = await until(
      async () => (await rpc(secret, 'modern', 'tasks/get', { taskId })).body,
      (body) => body.result?.status !== 'working',
    );
    expect(done.result).toMatchObject({
      resultType: 'complete',
      taskId,
      status: 'completed',
      result: { structuredContent: { run_id: taskId, status: 'completed', done: true } },
    });
  });

  it('2025-11-25: a task-augmented ask_agent answers { task }; tasks/get and tasks/result follow it', async () => {
    const secret = await makeKey(['agents:read', 'agents:ask']);
    const client = await connect(secret);
    const listed = (await client.listTools()).tools;
    expect(listed.map((tool) => tool.name).sort()).toEqual([
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
    const legacyList = await rpc(secret, 'legacy', 'tools/list', {});
    expect((legacyList.body.result!.tools as Array<{ name: string; execution?: unknown }>).find((tool) => tool.name === 'ask_agent')!.execution).toEqual({
      taskSupport: 'optional',
    });

    const created = await ask(secret, 'legacy', { instruction: 'Hello' });
    expect(created.body.result, JSON.stringify(created.body)).toMatchObject({ task: { taskId: expect.stringMatching(/^cmd_/), status: 'working', ttl: null } });
    const taskId = (created.body.result!.task as { taskId: string }).taskId;
    const result = await rpc(secret, 'legacy', 'tasks/result', { taskId });
    expect(result.body.result, JSON.stringify(result.body)).toMatchObject({
      structuredContent: { run_id: taskId, status: 'completed' },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    expect((await rpc(secret, 'legacy', 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'completed' });
  });

  it('clients without tasks keep the waited answer', async () => {
    const secret = await makeKey(['agents:read', 'agents:ask']);
    const client = await connect(secret);
    const asked = await client.callTool({ name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction: 'Hello', wait_seconds: 20 } });
    expect(asked.structuredContent).toMatchObject({ status: 'completed', done: true });
    expect(asked).not.toHaveProperty('task');
  });

  it('a confirm run waits as an input_required task; tasks/update approves it (the contact then exists once); tasks/cancel stops another', async () => {
    const secret = await makeKey(['agents:read', 'agents:ask', 'agents:act']);
    const created = await ask(secret, 'modern', { instruction: adding('Grace Hopper'), confirm: true });
    const taskId = created.body.result!.taskId as string;
    const waiting = await until(
      async () => (await rpc(secret, 'modern', 'tasks/get', { taskId })).body,
      (body) => body.result?.status === 'input_required',
    );
    expect(waiting.result).toMatchObject({
      inputRequests: { approval: { method: 'elicitation/create', params: { mode: 'form', message: expect.stringContaining('contacts.create') } } },
    });
    const updated = await rpc(secret, 'modern', 'tasks/update', {
      taskId,
      inputResponses: { approval: { action: 'accept', content: { decision: 'approve' } } },
    });
    expect(updated.body.result, JSON.stringify(updated.body)).toMatchObject({ resultType: 'complete' });
    await until(
      async () => (await rpc(secret, 'modern', 'tasks/get', { taskId })).body,
      (body) => body.result?.status === 'completed',
    );
    expect(await contactsNamed(ctx.api, 'Grace Hopper')).toBe(1);

    const other = await ask(secret, 'modern', { instruction: adding('Stopped Steve'), confirm: true });
    const otherId = other.body.result!.taskId as string;
    await until(
      async () => (await rpc(secret, 'modern', 'tasks/get', { taskId: otherId })).body,
      (body) => body.result?.status === 'input_required',
    );
    expect((await rpc(secret, 'modern', 'tasks/cancel', { taskId: otherId })).body.result).toMatchObject({ resultType: 'complete' });
    expect((await rpc(secret, 'modern', 'tasks/get', { taskId: otherId })).body.result).toMatchObject({ status: 'cancelled' });
    expect(await contactsNamed(ctx.api, 'Stopped Steve')).toBe(0);
  });

  it('approve_run and reject_run answer a waiting run over MCP; cancel_run stops one; get_run says what it waits for', async () => {
    const secret = await makeKey(['agents:read', 'agents:ask', 'agents:act']);
    const client = await connect(secret);
    const waitFor = async (runId: string) =>
      until(
        async () =>
          (await client.callTool({ name: 'get_run', arguments: { run_id: runId } })) as { structuredContent: RunOut; content: Array<{ text: string }> },
        (result) => result.structuredContent.status === 'requires_action',
      );
    const start = async (name: string) =>
      (
        (await client.callTool({ name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction: adding(name), confirm: true, wait_seconds: 0 } }))
          .structuredContent as RunOut
      ).run_id;

    const approvedId = await start('Ada Lovelace');
    const waiting = await waitFor(approvedId);
    expect(waiting.structuredContent).toMatchObject({ autonomy: 'confirm', pending_action: { capability: 'contacts.create' } });
    expect(waiting.content[0]!.text).toContain('approve_run');
    const approved = await client.callTool({ name: 'approve_run', arguments: { run_id: approvedId, note: 'fine' } });
    expect(approved.isError, JSON.stringify(approved)).toBeFalsy();
    expect(((await client.callTool({ name: 'get_run', arguments: { run_id: approvedId, wait_seconds: 20 } })).structuredContent as RunOut).status).toBe(
      'completed',
    );
    expect(await contactsNamed(ctx.api, 'Ada Lovelace')).toBe(1);
    // The first answer wins: a second one is refused.
    expect((await client.callTool({ name: 'reject_run', arguments: { run_id: approvedId } })).isError).toBe(true);

    const rejectedId = await start('Rejected Rita');
    await waitFor(rejectedId);
    expect((await client.callTool({ name: 'reject_run', arguments: { run_id: rejectedId } })).isError).toBeFalsy();
    await client.callTool({ name: 'get_run', arguments: { run_id: rejectedId, wait_seconds: 20 } });
    expect(await contactsNamed(ctx.api, 'Rejected Rita')).toBe(0);

    const stoppedId = await start('Cancelled Carl');
    await waitFor(stoppedId);
    const stopped = await client.callTool({ name: 'cancel_run', arguments: { run_id: stoppedId } });
    expect(stopped.structuredContent).toMatchObject({ status: 'cancelled' });
    expect(await contactsNamed(ctx.api, 'Cancelled Carl')).toBe(0);
  });

  it('without agents:act, approving is refused with the insufficient_scope challenge, over a tool and over tasks/update', async () => {
    const actor = await connect(await makeKey(['agents:read', 'agents:ask', 'agents:act']));
    const runId = (
      (await actor.callTool({ name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction: adding('Scoped Sam'), confirm: true, wait_seconds: 0 } }))
        .structuredContent as RunOut
    ).run_id;
    const readOnly = await makeKey(['agents:read', 'agents:ask']);
    const refused = await rpc(readOnly, 'legacy', 'tools/call', { name: 'approve_run', arguments: { run_id: runId } });
    expect(refused.status).toBe(403);
    const challenged = await fetch(new URL('/mcp', ctx.platform.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${readOnly}`,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'approve_run', arguments: { run_id: runId } } }),
    });
    expect(challenged.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="[^"]*agents:act/);
    // confirm itself needs agents:act as allow_actions does.
    expect(
      (await rpc(readOnly, 'legacy', 'tools/call', { name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction: 'x', confirm: true } })).status,
    ).toBe(403);
    const update = await rpc(readOnly, 'modern', 'tasks/update', {
      taskId: runId,
      inputResponses: { approval: { action: 'accept', content: { decision: 'approve' } } },
    });
    expect(update.body.error?.message).toContain('agents:act');
    expect(await contactsNamed(ctx.api, 'Scoped Sam')).toBe(0);
  });

  it("refuses another workspace's run as not found", async () => {
    const secret = await makeKey(['agents:read', 'agents:ask', 'agents:act']);
    const missing = await rpc(secret, 'modern', 'tasks/get', { taskId: 'cmd_000000000000000000000000' });
    expect(missing.body.error?.message).toContain('No task');
    expect((await rpc(secret, 'legacy', 'tasks/cancel', { taskId: 'cmd_000000000000000000000000' })).body.error?.message).toMatch(/No task|No run/);
  });
});
