import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type RunningPlatform } from '../../src/entries/local/platform';
import { KEY_CHECK_VOUCHES_MS } from '../../src/domains/access/key-admission';
import { apiClient, newDemoKey, type ApiCall } from '../support/platform';

/**
 * Two instances of the API on one store (two platforms on one dynalite, each with its own caches, as two Lambda
 * containers), on a pinned clock: what a key's recent check may vouch for, and that the requests admitted on it
 * reach the shared per-minute count.
 */
describe('API key admission across instances', () => {
  const key = newDemoKey();
  // A check vouches for up to a hundredth of the limit: 3 requests here.
  const limit = 300;
  // Mid-minute, so a few seconds of advancing never crosses into the next rate window.
  let nowMs = Date.UTC(2026, 10, 23, 12, 0, 20);
  const advance = (ms: number) => (nowMs += ms);
  const env = { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: String(limit) };
  const platforms: RunningPlatform[] = [];
  let a: ApiCall;
  let b: ApiCall;

  beforeAll(async () => {
    const first = await startPlatform({ port: 0, env, now: () => new Date(nowMs) });
    const second = await startPlatform({ port: 0, env, now: () => new Date(nowMs), dynamoEndpoint: first.deps.config.dynamoEndpoint });
    platforms.push(second, first);
    a = apiClient(first.apiBaseUrl, key);
    b = apiClient(second.apiBaseUrl, key);
  });
  afterAll(async () => {
    for (const platform of platforms) await platform.stop();
  });

  const remaining = (response: { headers: Headers }) => Number(response.headers.get('ratelimit-remaining'));

  it('counts requests admitted on a recent check into the shared limit, and stops at the limit across instances', async () => {
    const first = await a('agents/list/');
    expect(first.status).toBe(200);
    expect(remaining(first)).toBe(limit - 1);
    // Admitted on A's check, which vouches for the key: counted in A's tally, not yet in the store.
    for (let i = 0; i < 3; i++) expect(remaining(await a('agents/list/'))).toBe(limit - 2 - i);
    // B checks the key itself: the shared count has A's checked request and B's own, not A's tally yet.
    expect(remaining(await b('agents/list/'))).toBe(limit - 2);
    advance(KEY_CHECK_VOUCHES_MS);
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
  });

  it('stops a key revoked on another instance once the check it was admitted on is KEY_CHECK_VOUCHES_MS old, and at once where it was revoked', async () => {
    advance(60_000);
    const created = await a<{ key: { id: string }; secret: string }>('keys/create/', { body: { name: 'revoked elsewhere' } });
    const { secret, key: created_key } = created.body.data;
    expect((await a('agents/list/', { key: secret })).status).toBe(200);

    expect((await b('keys/revoke/', { body: { key_id: created_key.id } })).status).toBe(200);
    expect((await b('agents/list/', { key: secret })).status).toBe(401);
    // A's check of a moment ago still vouches (the documented bound) ...
    expect((await a('agents/list/', { key: secret })).status).toBe(200);
    advance(KEY_CHECK_VOUCHES_MS);
    // ... and no longer once it is that old.
    const after = await a('agents/list/', { key: secret });
    expect(after.status).toBe(401);
    expect(after.body.error?.code).toBe('API_KEY_INVALID');
  });
});
