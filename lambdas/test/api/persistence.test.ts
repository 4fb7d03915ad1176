import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPlatform } from '../../src/entries/local/platform';
import { apiClient, newDemoKey } from '../support/platform';

describe('the local platform keeps its data across a restart', () => {
  it('still has agents, keys, runs and subscriptions after stop and start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'platform-'));
    const key = newDemoKey();
    try {
      const first = await startPlatform({ port: 0, dataDir, env: { SERVICE_DEMO_API_KEY: key } });
      const api = apiClient(first.apiBaseUrl, key);
      const agent = await api<{ agent: { id: string } }>('agents/create/', { body: { preset: 'operations' } });
      const run = await api<{ run: { run_id: string } }>('agents/command/', { body: { agent_id: agent.body.data.agent.id, instruction: 'Plan the week' } });
      const extraKey = await api<{ secret: string }>('keys/create/', { body: { name: 'second' } });
      const hook = await api<{ subscription: { id: string } }>('webhooks/create/', {
        body: { url: 'https://example.com/h', events: ['agent.command.completed'] },
      });
      expect(first.demo.createdApiKey).toBe(key);
      await first.stop();

      const second = await startPlatform({ port: 0, dataDir, env: { SERVICE_DEMO_API_KEY: key } });
      try {
        expect(second.demo.createdApiKey).toBeUndefined();
        const again = apiClient(second.apiBaseUrl, extraKey.body.data.secret);
        const agents = await again<{ agents: { id: string }[] }>('agents/list/');
        expect(agents.body.data.agents.map((a) => a.id)).toContain(agent.body.data.agent.id);
        expect(agents.body.data.agents).toHaveLength(3);
        const status = await again<{ run_id: string }>('agents/command_status/', { query: { run_id: run.body.data.run.run_id } });
        expect(status.status).toBe(200);
        const hooks = await again<{ subscriptions: { id: string }[] }>('webhooks/list/');
        expect(hooks.body.data.subscriptions.map((s) => s.id)).toEqual([hook.body.data.subscription.id]);
        expect((await apiClient(second.apiBaseUrl, key)('agents/list/')).status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
