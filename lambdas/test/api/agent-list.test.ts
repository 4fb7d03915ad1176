import { randomBase62 } from '@service/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { FREE_FAILURES } from '../../src/domains/access/credential-failures';
import { apiClient, usePlatform } from '../support/platform';
import { createWorkspace } from '../support/workspaces';

/**
 * Spec 1's agent list, `GET {api_url}/v1/agents` with `Authorization: Bearer <API_KEY>`: how a site owner's server
 * finds the agent UUID of the embed line. Over real HTTP against the local platform.
 */
describe('GET /v1/agents (spec 1)', () => {
  const LIMIT = 20;
  let clock = Date.now();
  const ctx = usePlatform({ now: () => new Date(clock), env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  // Each test starts in a fresh rate-limit minute and past every credential-failure window of the one before.
  beforeEach(() => void (clock += 60 * 60_000));

  const list = (headers: Record<string, string> = {}, method = 'GET') => fetch(`${ctx.platform.url}/v1/agents`, { method, headers });
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const wrongKey = (prefix = randomBase62(4)) => `sk_live_${prefix}${randomBase62(36)}`;
  type Envelope = { status: boolean; code: number; error?: { code: string } };

  it('answers the bare JSON array of agent records to the key as Bearer: the first id is the agent UUID, the records those of agents/list', async () => {
    const response = await list(bearer(ctx.key));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const agents = (await response.json()) as Record<string, unknown>[];
    expect(Array.isArray(agents)).toBe(true);
    expect(agents[0]!.id).toBe(ctx.agentId);
    expect(Object.keys(agents[0]!)[0]).toBe('id');
    const rest = await ctx.api<{ agents: Record<string, unknown>[] }>('agents/list/');
    expect(agents).toEqual(rest.body.data.agents);
    expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    // The REST API's primary header is taken too.
    expect((await list({ 'x-service-api-key': ctx.key })).status).toBe(200);
  });

  it('lists the agents of the key’s own workspace only', async () => {
    const other = await createWorkspace(ctx.platform.deps);
    const agents = (await (await list(bearer(other.apiKey))).json()) as { id: string }[];
    expect(agents.map((agent) => agent.id)).toEqual([other.agentId]);
  });

  it('is closed to browsers: no Access-Control-Allow-Origin on an answer, and a preflight gets none either', async () => {
    const answer = await list({ ...bearer(ctx.key), origin: 'https://shop.example' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await list(
      { origin: 'https://shop.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      'OPTIONS',
    );
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    expect(preflight.status).toBe(405);
    const post = await list(bearer(ctx.key), 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(((await post.json()) as Envelope).error?.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('refuses a missing key (401 API_KEY_REQUIRED), a bad key (401 API_KEY_INVALID) and a workspace outside the partner plan (403 PLAN_REQUIRED) in the envelope', async () => {
    const refusals: [Record<string, string>, number, string][] = [
      [{}, 401, 'API_KEY_REQUIRED'],
      // A dashboard session is no key here.
      [{ cookie: 'svc_session=whatever' }, 401, 'API_KEY_REQUIRED'],
      [{ authorization: `Basic ${Buffer.from(`user:${ctx.key}`).toString('base64')}` }, 401, 'API_KEY_REQUIRED'],
      [bearer(wrongKey()), 401, 'API_KEY_INVALID'],
      [bearer('not-a-key'), 401, 'API_KEY_INVALID'],
      [bearer((await createWorkspace(ctx.platform.deps, 'starter')).apiKey), 403, 'PLAN_REQUIRED'],
    ];
    for (const [headers, status, code] of refusals) {
      const response = await list(headers);
      expect([response.status, await response.json()], JSON.stringify(headers)).toEqual([
        status,
        expect.objectContaining({ status: false, code: status, error: expect.objectContaining({ code }) }),
      ]);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('counts against the key’s per-minute limit shared with the REST API: past it, 429 RATE_LIMITED with Retry-After', async () => {
    const statuses: number[] = [];
    for (let request = 0; request < LIMIT + 2; request += 1) {
      statuses.push(request % 2 ? (await ctx.api('agents/list/')).status : (await list(bearer(ctx.key))).status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    const limited = await list(bearer(ctx.key));
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as Envelope).error?.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('slows guesses at a key prefix with the REST API’s credential-failure delays, shared with it', async () => {
    const apiKeyGuess = apiClient(ctx.platform.apiBaseUrl);
    for (let index = 0; index < FREE_FAILURES.perKeyPrefix; index += 1) {
      const status = index % 2 ? (await apiKeyGuess('agents/list/', { key: wrongKey('GUES') })).status : (await list(bearer(wrongKey('GUES')))).status;
      expect(status).toBe(401);
    }
    const limited = await list(bearer(wrongKey('GUES')));
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as Envelope).error?.code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('2');
    // The right key is never refused by the delays.
    expect((await list(bearer(ctx.key))).status).toBe(200);
  });
});
