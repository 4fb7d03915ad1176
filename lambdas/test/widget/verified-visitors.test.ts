import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';

// Identity verification of widget visitors: the host signs a user id with the agent's identity secret; a verified
// visitor's conversation is served on any device, anyone else stays anonymous.

const ORIGIN = 'http://localhost:3000';
const sign = (secret: string, userId: string) => createHmac('sha256', secret).update(userId).digest('hex');

describe('verified widget visitors', () => {
  const ctx = usePlatform();
  const url = (route: string) => `${ctx.platform.url}/v1/agents/${ctx.agentId}/${route}`;
  const identity = (userId: string, userHash: string) => ({ 'x-user-id': userId, 'x-user-hash': userHash });

  async function rotate(): Promise<string> {
    const response = await ctx.api<{ agent_id: string; identity_secret: string }>('agents/identity_secret/', { body: { agent_id: ctx.agentId } });
    expect(response.status).toBe(200);
    expect(openApiProblems('agentsIdentitySecret', response as ApiResponse<unknown>)).toEqual([]);
    return response.body.data.identity_secret;
  }

  const chat = (conversationId: string, headers: Record<string, string>, content = 'Hello, where is the pricing?') =>
    fetch(url('chat'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers },
      body: JSON.stringify({ conversationId, visitorId: crypto.randomUUID(), locale: 'en', messages: [{ role: 'user', content }] }),
    });
  const history = async (headers: Record<string, string>) => {
    const response = await fetch(url('history'), { headers: { origin: ORIGIN, ...headers } });
    expect(response.status).toBe(200);
    return (await response.json()) as { verified: boolean; conversationId: string | null; messages: { role: string; content: string }[] };
  };

  it('issues a secret shown once, never in widget-config or the agent', async () => {
    const secret = await rotate();
    expect(secret).toMatch(/^vis_/);
    expect(JSON.stringify(await (await fetch(url('widget-config'))).json())).not.toContain(secret);
    expect(JSON.stringify((await ctx.api('agents/get/', { query: { agent_id: ctx.agentId } })).body)).not.toContain(secret);
  });

  it('serves a verified visitor their conversation on another device; a forged or missing hash gets none', async () => {
    const secret = await rotate();
    const conversationId = crypto.randomUUID();
    const ada = identity('user-42', sign(secret, 'user-42'));
    await (await chat(conversationId, ada)).text();

    const elsewhere = await history(ada);
    expect(elsewhere).toMatchObject({ verified: true, conversationId });
    expect(elsewhere.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(elsewhere.messages[0]?.content).toBe('Hello, where is the pricing?');
    // The other device, another visitor id, continues the same conversation.
    expect((await chat(conversationId, ada, 'And the docs?')).status).toBe(200);

    const forged = identity('user-42', sign('not-the-secret', 'user-42'));
    expect(await history(forged)).toEqual({ verified: false, conversationId: null, messages: [] });
    expect(await history({ 'x-user-id': 'user-42' })).toEqual({ verified: false, conversationId: null, messages: [] });
    // As anonymous, the forger cannot present the user's conversation either.
    expect((await chat(conversationId, forged)).status).toBe(400);

    // A rotation retires the old secret's hashes.
    await rotate();
    expect((await history(ada)).verified).toBe(false);
  });
});
