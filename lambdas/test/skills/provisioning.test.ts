import { describe, expect, it } from 'vitest';
import { apiClient, usePlatform } from '../support/platform';

const MASTER_KEY = 'm'.repeat(48);

describe('provisioning a company with the master key (how a deployment gets its first workspace)', () => {
  const ctx = usePlatform({ env: { SERVICE_MASTER_KEY: MASTER_KEY } });
  const provision = (body: unknown, headers: Record<string, string>) =>
    fetch(`${ctx.platform.apiBaseUrl}/admin/workspaces/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('creates the workspace with starting grants and a first API key shown once', async () => {
    const response = await provision({ name: 'Acme', owner_email: 'owner@acme.example' }, { 'x-service-master-key': MASTER_KEY });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: { workspace: { id: string; plan: string }; secret: string; key: { last4: string } } };
    expect(data.workspace.plan).toBe('partner');
    expect(data.secret).toMatch(/^sk_live_/);

    const acme = apiClient(ctx.platform.apiBaseUrl, data.secret);
    expect((await acme<{ agents: unknown[] }>('agents/list/')).body.data.agents).toEqual([]);
    const grants = await acme<{ grants: { role: string; capability: string }[] }>('grants/list/');
    expect(grants.body.data.grants).toContainEqual(expect.objectContaining({ role: 'admin', capability: 'email.send' }));
    expect(JSON.stringify((await acme('keys/list/')).body)).not.toContain(data.secret);
  });

  it('refuses without the master key, with an API key, and with a bad body', async () => {
    expect((await provision({ name: 'Nope', owner_email: 'owner@nope.example' }, {})).status).toBe(401);
    expect((await provision({ name: 'Nope', owner_email: 'owner@nope.example' }, { 'x-service-api-key': ctx.key })).status).toBe(401);
    const bad = await provision({ name: '', plan: 'gold' }, { 'x-service-master-key': MASTER_KEY });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    // A workspace is never without an owner: the first owner's e-mail is required.
    const ownerless = await provision({ name: 'Nobody' }, { 'x-service-master-key': MASTER_KEY });
    expect(ownerless.status).toBe(400);
    expect(((await ownerless.json()) as { error: { code: string; field?: string } }).error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'owner_email' });
  });
});
