import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';

describe('the agents’ mail domain is a deploy setting', () => {
  const ctx = usePlatform({ env: { AGENT_MAIL_DOMAIN: 'agents.acme.example' } });

  it('an agent hired on a platform with AGENT_MAIL_DOMAIN gets its address there', async () => {
    const hired = await ctx.api<{ agent: { email: string } }>('agents/create', {
      body: { preset: 'sales', name: 'Grace Hopper' },
      headers: { 'idempotency-key': 'hire-grace' },
    });
    expect(hired.status).toBe(201);
    expect(hired.body.data.agent.email).toMatch(/^grace-hopper\.[0-9a-f]{8}@agents\.acme\.example$/);
  });
});
