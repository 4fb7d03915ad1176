import { mintTurnToken } from '@service/skill-sdk';
import { describe, expect, it } from 'vitest';
import { DEMO_AGENT_IDS, DEMO_WORKSPACE_ID } from '../../src/entries/local/seed';
import { mintTurn } from '../../src/domains/skills/turns';
import { usePlatform } from '../support/platform';
import { createWorkspace } from '../support/workspaces';

describe('the serviceApi routes accept a live turn token and nothing else', () => {
  const ctx = usePlatform();
  const post = async (path: string, body: unknown, headers: Record<string, string>) => {
    const response = await fetch(`${ctx.platform.apiBaseUrl}/${path}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as { status: boolean; data: Record<string, unknown>; error?: { code: string; field?: string } },
    };
  };
  const liveTurn = (skill: string, workspaceId = DEMO_WORKSPACE_ID, agentId: string = DEMO_AGENT_IDS.support) =>
    mintTurn(
      ctx.platform.deps,
      ctx.platform.skillHost.turnTokenSecret,
      skill,
      { workspaceId, agentId, runId: 'cmd_test', roles: ['admin'], capabilities: undefined },
      true,
    );

  it('acts for the token’s workspace with a live turn token', async () => {
    const { token } = await liveTurn('contacts');
    const created = await post('skills/contacts/create', { name: 'Grace Hopper' }, { 'x-service-turn-token': token });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: 'Grace Hopper' });
    const contacts = await ctx.api<{ contacts: { name: string }[] }>('contacts/list/');
    expect(contacts.body.data.contacts.map((contact) => contact.name)).toContain('Grace Hopper');
  });

  it('keeps a token in its own workspace: another company’s turn writes there, not here', async () => {
    const other = await createWorkspace(ctx.platform.deps);
    const { token } = await liveTurn('contacts', other.workspaceId, other.agentId);
    expect((await post('skills/contacts/create', { name: 'Only Elsewhere' }, { 'x-service-turn-token': token })).status).toBe(200);
    const contacts = await ctx.api<{ contacts: { name: string }[] }>('contacts/list/');
    expect(contacts.body.data.contacts.map((contact) => contact.name)).not.toContain('Only Elsewhere');
  });

  it('refuses a missing, expired, tampered, foreign-key, wrong-skill or unissued token with 401', async () => {
    const secret = ctx.platform.skillHost.turnTokenSecret;
    const { token } = await liveTurn('contacts');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '5eed0000-0000-4000-8000-0000000000ff' })).toString('base64url')}.${signature}`;
    const cases: [string, Record<string, string>, string][] = [
      ['missing', {}, 'TURN_TOKEN_REQUIRED'],
      [
        'expired',
        {
          'x-service-turn-token': await mintTurnToken(
            { accountId: DEMO_WORKSPACE_ID, skill: 'contacts' },
            { secret, now: Math.floor(Date.now() / 1000) - 600 },
          ),
        },
        'TURN_TOKEN_EXPIRED',
      ],
      ['tampered', { 'x-service-turn-token': tampered }, 'TURN_TOKEN_INVALID'],
      ['garbage', { 'x-service-turn-token': 'not.a.jwt' }, 'TURN_TOKEN_INVALID'],
      [
        'another key',
        { 'x-service-turn-token': await mintTurnToken({ accountId: DEMO_WORKSPACE_ID, skill: 'contacts' }, { secret: 'x'.repeat(48) }) },
        'TURN_TOKEN_INVALID',
      ],
      ['another skill', { 'x-service-turn-token': (await liveTurn('tasks')).token }, 'TURN_TOKEN_INVALID'],
      [
        'never issued for a turn',
        { 'x-service-turn-token': await mintTurnToken({ accountId: DEMO_WORKSPACE_ID, skill: 'contacts' }, { secret }) },
        'TURN_TOKEN_INVALID',
      ],
      ['an API key instead', { 'x-service-api-key': ctx.key }, 'TURN_TOKEN_REQUIRED'],
    ];
    for (const [label, headers, code] of cases) {
      const response = await post('skills/contacts/search', { query: 'grace' }, headers);
      expect({ label, status: response.status, code: response.body.error?.code }).toEqual({ label, status: 401, code });
    }
  });

  it('refuses a method the token’s grants do not cover, bad params and unknown methods', async () => {
    const limited = await mintTurn(
      ctx.platform.deps,
      ctx.platform.skillHost.turnTokenSecret,
      'contacts',
      { workspaceId: DEMO_WORKSPACE_ID, agentId: DEMO_AGENT_IDS.support, runId: 'cmd_test', roles: ['member'], capabilities: ['contacts.search'] },
      true,
    );
    const forbidden = await post('skills/contacts/create', { name: 'Nope' }, { 'x-service-turn-token': limited.token });
    expect([forbidden.status, forbidden.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    const { token } = await liveTurn('contacts');
    const invalid = await post('skills/contacts/create', { name: '' }, { 'x-service-turn-token': token });
    expect([invalid.status, invalid.body.error]).toEqual([400, { code: 'VALIDATION_ERROR', field: 'name' }]);
    expect((await post('skills/contacts/delete_all', {}, { 'x-service-turn-token': token })).status).toBe(404);
  });

  it('administrative routes take the master key and reject turn tokens', async () => {
    const masterKey = ctx.platform.skillHost.masterKey!;
    const body = { workspace_id: DEMO_WORKSPACE_ID, role: 'member', capability: 'email.send' };
    const { token } = await liveTurn('email');
    const withToken = await post('admin/grants/create', body, { 'x-service-turn-token': token, 'x-service-master-key': masterKey });
    expect([withToken.status, withToken.body.error?.code]).toEqual([401, 'MASTER_KEY_REQUIRED']);
    const tokenAsBearer = await post('admin/grants/create', body, { authorization: `Bearer ${token}` });
    expect([tokenAsBearer.status, tokenAsBearer.body.error?.code]).toEqual([401, 'MASTER_KEY_INVALID']);
    expect((await post('admin/grants/create', body, { 'x-service-api-key': ctx.key })).status).toBe(401);
    const restWithToken = await ctx.api('grants/create/', {
      body: { role: 'member', capability: 'email.send' },
      key: null,
      headers: { authorization: `Bearer ${token}` },
    });
    expect([restWithToken.status, restWithToken.body.error?.code]).toEqual([401, 'API_KEY_INVALID']);

    const granted = await post('admin/grants/create', body, { 'x-service-master-key': masterKey });
    expect(granted.status).toBe(201);
    const grants = await ctx.api<{ grants: { capability: string }[] }>('grants/list/', { query: { role: 'member' } });
    expect(grants.body.data.grants.map((grant) => grant.capability)).toContain('email.send');
    const unknownWorkspace = await post(
      'admin/grants/create',
      { ...body, workspace_id: '5eed0000-0000-4000-8000-0000000000ff' },
      { 'x-service-master-key': masterKey },
    );
    expect(unknownWorkspace.body.error).toEqual({ code: 'NOT_FOUND', field: 'workspace_id' });
  });
});
