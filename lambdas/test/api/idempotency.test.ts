import { describe, expect, it } from 'vitest';
import { apiClient, usePlatform } from '../support/platform';
import { createWorkspace } from '../support/workspaces';

describe('Idempotency-Key', () => {
  const ctx = usePlatform({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  const runsOfDemoAgent = async () =>
    (await ctx.api<{ runs: { run_id: string; instruction: string }[] }>('agents/runs/', { query: { agent_id: ctx.agentId, limit: '100' } })).body.data.runs;

  it('replays the stored status and body of an identical repeat, marked with a header', async () => {
    const request = { body: { name: 'Grace Hopper', email: 'grace@example.com' }, headers: { 'idempotency-key': 'contact-grace-1' } };
    const first = await ctx.api<{ contact: { id: string } }>('contacts/create/', request);
    const second = await ctx.api<{ contact: { id: string } }>('contacts/create/', request);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBe('false');
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const contacts = await ctx.api<{ contacts: { name: string }[] }>('contacts/list/');
    expect(contacts.body.data.contacts.filter((c) => c.name === 'Grace Hopper')).toHaveLength(1);
  });

  it('answers 409 IDEMPOTENCY_CONFLICT for the same key with another payload', async () => {
    const key = { 'idempotency-key': 'task-1' };
    expect((await ctx.api('tasks/create/', { body: { title: 'Call back' }, headers: key })).status).toBe(201);
    const conflict = await ctx.api('tasks/create/', { body: { title: 'Something else' }, headers: key });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error?.code).toBe('IDEMPOTENCY_CONFLICT');
    const otherEndpoint = await ctx.api('contacts/create/', { body: { title: 'Call back' }, headers: key });
    expect(otherEndpoint.status).toBe(400);
  });

  it('rejects keys over 128 characters', async () => {
    const response = await ctx.api('tasks/create/', { body: { title: 'x' }, headers: { 'idempotency-key': 'k'.repeat(129) } });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'Idempotency-Key' });
    expect((await ctx.api('tasks/create/', { body: { title: 'x' }, headers: { 'idempotency-key': 'k'.repeat(128) } })).status).toBe(201);
  });

  it('creates exactly one run for 50 concurrent identical agents/command requests', async () => {
    const instruction = `Concurrent ${Date.now()}`;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        ctx.api<{ run: { run_id: string } }>('agents/command/', {
          body: { agent_id: ctx.agentId, instruction },
          headers: { 'idempotency-key': 'fifty-at-once' },
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(202));
    const runIds = new Set(responses.map((r) => r.body.data.run.run_id));
    expect(runIds.size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'false')).toHaveLength(1);
    expect((await runsOfDemoAgent()).filter((run) => run.instruction === instruction)).toHaveLength(1);
  });

  it('scopes keys to the workspace and covers webhooks/create', async () => {
    const other = await createWorkspace(ctx.platform.deps);
    const otherApi = apiClient(ctx.platform.apiBaseUrl, other.apiKey);
    const body = { url: 'https://example.com/hooks', events: ['agent.command.completed'] };
    const headers = { 'idempotency-key': 'hook-1' };
    const mine = await ctx.api<{ subscription: { id: string }; signing_secret: string }>('webhooks/create/', { body, headers });
    const again = await ctx.api<{ subscription: { id: string } }>('webhooks/create/', { body, headers });
    const theirs = await otherApi<{ subscription: { id: string } }>('webhooks/create/', { body, headers });
    expect(again.body.data.subscription.id).toBe(mine.body.data.subscription.id);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.subscription.id).not.toBe(mine.body.data.subscription.id);
    expect((await ctx.api<{ subscriptions: unknown[] }>('webhooks/list/')).body.data.subscriptions).toHaveLength(1);
  });

  it('does not store a failed attempt, so the caller can retry it', async () => {
    const headers = { 'idempotency-key': 'retry-after-404' };
    const missing = await ctx.api('agents/command/', { body: { agent_id: '00000000-0000-4000-8000-000000000000', instruction: 'x' }, headers });
    expect(missing.status).toBe(404);
    const again = await ctx.api('agents/command/', { body: { agent_id: '00000000-0000-4000-8000-000000000000', instruction: 'x' }, headers });
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });
});
