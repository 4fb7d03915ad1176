import { randomBase62 } from '@service/shared';
import { describe, expect, it } from 'vitest';
import { createApiHandler } from '../../src/surfaces/rest-api/handler';
import { FREE_FAILURES } from '../../src/domains/access/credential-failures';
import { apiEvent, invoke } from '../support/faults';
import { usePlatform } from '../support/platform';

const MASTER_KEY = 'M'.repeat(48);

describe('failed credentials meet progressive delays, per source IP and per key prefix, shared by every instance', () => {
  let clock = Date.now();
  const ctx = usePlatform({ now: () => new Date(clock), env: { SERVICE_MASTER_KEY: MASTER_KEY } });
  const wrongKey = (prefix = randomBase62(4)) => `sk_live_${prefix}${randomBase62(36)}`;

  it('slows guesses at one key prefix across two Lambda instances, with Retry-After, until the delay passes', async () => {
    const instances = [createApiHandler(ctx.platform.deps), createApiHandler(ctx.platform.deps)];
    const attempt = (index: number, key: string) => invoke(instances[index % 2]!, apiEvent('GET', 'agents/list', { headers: { 'x-service-api-key': key } }));
    for (let index = 0; index < FREE_FAILURES.perKeyPrefix; index += 1) expect((await attempt(index, wrongKey('GUES'))).statusCode).toBe(401);
    const limited = await attempt(1, wrongKey('GUES'));
    expect(limited.statusCode).toBe(429);
    expect(JSON.parse(limited.body!)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(limited.headers['Retry-After']).toBe('2');
    expect((await attempt(0, wrongKey('GUES'))).statusCode).toBe(429);
    clock += 2_000;
    expect((await attempt(1, wrongKey('GUES'))).headers['Retry-After']).toBe('4');
  });

  it('slows every key from a source IP that keeps failing, the right one too, and lets it in after the delay', async () => {
    for (let index = 0; index < FREE_FAILURES.perSourceIp; index += 1) expect((await ctx.api('agents/list/', { key: wrongKey() })).status).toBe(401);
    const limited = await ctx.api('agents/list/', { key: wrongKey() });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect((await ctx.api('agents/list/')).status).toBe(429);
    clock += retryAfter * 1_000;
    expect((await ctx.api('agents/list/')).status).toBe(200);
  });

  it('slows guesses at the master key the same way', async () => {
    const provision = (key: string) =>
      fetch(`${ctx.platform.apiBaseUrl}/admin/workspaces/create/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-master-key': key }, body: '{"name":"Guess","owner_email":"owner@guess.example"}' });
    clock += 60 * 60_000;
    for (let index = 0; index < FREE_FAILURES.perKeyPrefix; index += 1) expect((await provision(`MMMMMM${randomBase62(42)}`)).status).toBe(401);
    const limited = await provision(`MMMMMM${randomBase62(42)}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    clock += 2_000;
    expect((await provision(MASTER_KEY)).status).toBe(201);
  });
});
