import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type RunningPlatform } from '../../src/entries/local/platform';
import { VOUCH_MS } from '../../src/infra/cache/vouching';
import { apiClient, newDemoKey, type ApiCall } from '../support/platform';

/**
 * Two instances of the API on one store (two platforms on one dynalite, each with its own caches, as two Lambda
 * containers), on a clock the test moves forward: what a key's recent check may vouch for, that the requests admitted
 * on it reach the shared per-minute count, and that a revocation outlasts every vouch before it answers.
 */
describe('API key admission across instances', () => {
  const key = newDemoKey();
  // A check vouches for up to a hundredth of the limit: 3 requests here.
  const limit = 300;
  // Real time shifted to 5 s past a minute, so the test's own seconds never cross into the next rate window; frozen
  // where a slow machine must not let a vouch lapse between two requests.
  let offsetMs = 65_000 - (Date.now() % 60_000);
  let frozenAt: number | undefined;
  const nowMs = () => (frozenAt ?? Date.now()) + offsetMs;
  const advance = (ms: number) => (offsetMs += ms);
  const env = { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: String(limit) };
  const platforms: RunningPlatform[] = [];
  let a: ApiCall;
  let b: ApiCall;

  beforeAll(async () => {
    const first = await startPlatform({ port: 0, env, now: () => new Date(nowMs()) });
    const second = await startPlatform({ port: 0, env, now: () => new Date(nowMs()), dynamoEndpoint: first.deps.config.dynamoEndpoint });
    platforms.push(second, first);
    a = apiClient(first.apiBaseUrl, key);
    b = apiClient(second.apiBaseUrl, key);
  });
  afterAll(async () => {
    for (const platform of platforms) await platform.stop();
  });

  const remaining = (response: { headers: Headers }) => Number(response.headers.get('ratelimit-remaining'));

  it('counts requests admitted on a recent check into the shared limit, and stops at the limit across instances', async () => {
    frozenAt = Date.now();
    const first = await a('agents/list/');
    expect(first.status).toBe(200);
    expect(remaining(first)).toBe(limit - 1);
    // Admitted on A's check, which vouches for the key: counted in A's tally, not yet in the store.
    for (let i = 0; i < 3; i++) expect(remaining(await a('agents/list/'))).toBe(limit - 2 - i);
    // B checks the key itself: the shared count has A's checked request and B's own, not A's tally yet.
    expect(remaining(await b('agents/list/'))).toBe(limit - 2);
    advance(VOUCH_MS);
    // A's next request is checked again, carrying its tally of 3 into the shared count.
    expect(remaining(await a('agents/list/'))).toBe(limit - 6);

    let admitted = 6;
    for (let turn = 0; turn < 2 * limit; turn++) {
      const response = await (turn % 3 === 0 ? b : a)('agents/list/');
      if (response.status === 429) {
        expect(response.body.error?.code).toBe('RATE_LIMITED');
        break;
      }
      expect(response.status).toBe(200);
      admitted += 1;
    }
    // Near the limit every request is counted before it acts, so the two instances together admit the limit exactly.
    expect(admitted).toBe(limit);
    frozenAt = undefined;
  });

  it('answers a revocation once no instance admits the key any more: the next call fails everywhere', async () => {
    advance(60_000);
    const created = await a<{ key: { id: string }; secret: string }>('keys/create/', { body: { name: 'revoked elsewhere' } });
    const { secret, key: createdKey } = created.body.data;
    // A checks the key, and that check vouches for it on A.
    expect((await a('agents/list/', { key: secret })).status).toBe(200);
    expect((await a('agents/list/', { key: secret })).status).toBe(200);

    const started = Date.now();
    expect((await b('keys/revoke/', { body: { key_id: createdKey.id } })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(VOUCH_MS);
    for (const instance of [a, b]) {
      const after = await instance('agents/list/', { key: secret });
      expect(after.status).toBe(401);
      expect(after.body.error?.code).toBe('API_KEY_INVALID');
    }
  });
});
