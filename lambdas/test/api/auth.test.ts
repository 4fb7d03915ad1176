import { describe, expect, it } from 'vitest';
import { apiClient, usePlatform } from '../support/platform';
import { createWorkspace } from '../support/workspaces';

describe('API keys', () => {
  const ctx = usePlatform();

  it('answers 401 API_KEY_REQUIRED without a key', async () => {
    const response = await ctx.api('agents/list/', { key: null });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ status: false, code: 401, error: { code: 'API_KEY_REQUIRED' } });
  });

  it('answers 401 API_KEY_INVALID for a wrong or malformed key', async () => {
    for (const key of ['sk_live_' + 'x'.repeat(40), 'not-a-key', 'sk_live_short']) {
      const response = await ctx.api('agents/list/', { key });
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('API_KEY_INVALID');
    }
  });

  it('accepts the key as X-Service-Api-Key and as a Bearer token', async () => {
    expect((await ctx.api('agents/list/')).status).toBe(200);
    const bearer = await ctx.api('agents/list/', { key: null, headers: { authorization: `Bearer ${ctx.key}` } });
    expect(bearer.status).toBe(200);
  });

  it('shows a new key once, lists only its hash-derived display fields, and a revoked key fails at once', async () => {
    const created = await ctx.api<{ key: { id: string; prefix: string; last4: string }; secret: string }>('keys/create/', { body: { name: 'CI' } });
    expect(created.status).toBe(201);
    const { secret, key } = created.body.data;
    expect(secret).toMatch(/^sk_live_[0-9A-Za-z]{32,}$/);
    expect(secret.startsWith(key.prefix) && secret.endsWith(key.last4)).toBe(true);

    const listed = await ctx.api<{ keys: Record<string, unknown>[] }>('keys/list/');
    expect(JSON.stringify(listed.body.data)).not.toContain(secret);
    expect(listed.body.data.keys.some((k) => k.id === key.id)).toBe(true);

    expect((await ctx.api('agents/list/', { key: secret })).status).toBe(200);
    const revoked = await ctx.api('keys/revoke/', { body: { key_id: key.id } });
    expect(revoked.status).toBe(200);
    const after = await ctx.api('agents/list/', { key: secret });
    expect(after.status).toBe(401);
    expect(after.body.error?.code).toBe('API_KEY_INVALID');
  });

  it('answers 403 PLAN_REQUIRED for a workspace outside the partner program', async () => {
    const starter = await createWorkspace(ctx.platform.deps, 'starter');
    const response = await ctx.api('agents/list/', { key: starter.apiKey });
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('PLAN_REQUIRED');
  });
});

describe('workspace isolation', () => {
  const ctx = usePlatform();

  it('never lets one workspace read or change another workspace’s data', async () => {
    const other = await createWorkspace(ctx.platform.deps);
    const otherApi = apiClient(ctx.platform.apiBaseUrl, other.apiKey);

    const command = await ctx.api<{ run: { run_id: string } }>('agents/command/', { body: { agent_id: ctx.agentId, instruction: 'Hello' } });
    const runId = command.body.data.run.run_id;
    await ctx.api('contacts/create/', { body: { name: 'Secret Customer', email: 'secret@example.com' } });
    const hook = await ctx.api<{ subscription: { id: string } }>('webhooks/create/', {
      body: { url: 'https://example.com/hook', events: ['agent.command.completed'] },
    });

    const agents = await otherApi<{ agents: { id: string }[] }>('agents/list/');
    expect(agents.body.data.agents.map((a) => a.id)).toEqual([other.agentId]);
    expect((await otherApi('agents/get/', { query: { agent_id: ctx.agentId } })).body.error?.code).toBe('AGENT_NOT_FOUND');
    expect((await otherApi('agents/command/', { body: { agent_id: ctx.agentId, instruction: 'x' } })).body.error?.code).toBe('AGENT_NOT_FOUND');
    expect((await otherApi('agents/command_status/', { query: { run_id: runId } })).body.error?.code).toBe('RUN_NOT_FOUND');
    expect((await otherApi('agents/runs/', { query: { agent_id: ctx.agentId } })).body.error?.code).toBe('AGENT_NOT_FOUND');
    expect((await otherApi<{ contacts: unknown[] }>('contacts/list/')).body.data.contacts).toEqual([]);
    expect((await otherApi<{ subscriptions: unknown[] }>('webhooks/list/')).body.data.subscriptions).toEqual([]);
    expect((await otherApi('webhooks/delete/', { body: { webhook_id: hook.body.data.subscription.id } })).status).toBe(404);
    expect((await otherApi('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'calendar' } })).body.error?.code).toBe('AGENT_NOT_FOUND');

    const myKeys = await ctx.api<{ keys: { id: string }[] }>('keys/list/');
    for (const key of myKeys.body.data.keys) {
      expect((await otherApi('keys/revoke/', { body: { key_id: key.id } })).status).toBe(404);
    }
    expect((await ctx.api('agents/list/')).status).toBe(200);
    expect((await ctx.api<{ subscriptions: unknown[] }>('webhooks/list/')).body.data.subscriptions).toHaveLength(1);
  });
});
