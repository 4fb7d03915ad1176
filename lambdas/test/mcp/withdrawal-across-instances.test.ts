import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type RunningPlatform } from '../../src/entries/local/platform';
import { apiClient, newDemoKey } from '../support/platform';
import { connectByConsent, mcpCall } from './oauth-flow';

/**
 * Two instances on one store (two platforms on one dynalite, each with its own caches, as two Lambda containers): an
 * MCP call on one lets that container act on its verification for a moment; a withdrawal made on the other answers
 * only once no container does, so the next call fails wherever it lands.
 */
describe('withdrawing an MCP connection or revoking an MCP key across instances', () => {
  const key = newDemoKey();
  let a: RunningPlatform;
  let b: RunningPlatform;

  beforeAll(async () => {
    a = await startPlatform({ port: 0, env: { SERVICE_DEMO_API_KEY: key } });
    b = await startPlatform({ port: 0, env: { SERVICE_DEMO_API_KEY: key }, dynamoEndpoint: a.deps.config.dynamoEndpoint });
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  it('fails the next call on the instance that verified the token once the withdrawal on the other has answered', async () => {
    const tokens = await connectByConsent(a.url, a.demo.ownerEmail, ['agents:read']);
    const listAgents = () => mcpCall(a.url, tokens.access_token, 'tools/call', { name: 'list_agents', arguments: {} });
    expect((await listAgents()).status).toBe(200);
    expect((await listAgents()).status).toBe(200);

    const onB = apiClient(b.apiBaseUrl, key);
    const listed = await onB<{ connections: Array<{ id: string }> }>('connections/list/');
    expect(listed.body.data.connections).toHaveLength(1);
    expect((await onB('connections/withdraw/', { body: { connection_id: listed.body.data.connections[0]!.id } })).status).toBe(200);

    const after = await listAgents();
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('fails the next call made with an MCP key on the instance that verified it once the revocation on the other has answered', async () => {
    const onB = apiClient(b.apiBaseUrl, key);
    const created = await onB<{ key: { id: string }; secret: string }>('connections/key_create/', { body: { name: 'CI', scopes: ['agents:read'] } });
    expect(created.status).toBe(201);
    const listAgents = () => mcpCall(a.url, created.body.data.secret, 'tools/call', { name: 'list_agents', arguments: {} });
    expect((await listAgents()).status).toBe(200);
    expect((await listAgents()).status).toBe(200);

    expect((await onB('connections/key_revoke/', { body: { key_id: created.body.data.key.id } })).status).toBe(200);

    const after = await listAgents();
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });
});
