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

  it('slows the bad keys of an address that keeps failing, never a valid key from it, and refuses a known bad key without the store', async () => {
    clock += 60 * 60_000;
    // A company behind one NAT address: one integration still sends a revoked key, others guess, a good one works.
    const created = await ctx.api<{ secret: string; key: { id: string } }>('keys/create/', { body: { name: 'Stale integration' } });
    const stale = created.body.data.secret;
    expect((await ctx.api('keys/revoke/', { body: { key_id: created.body.data.key.id } })).status).toBe(200);
    const answers: number[] = [];
    for (let index = 0; index < 120; index += 1) answers.push((await ctx.api('agents/list/', { key: index % 2 ? stale : wrongKey() })).status);
    expect(answers.slice(0, FREE_FAILURES.perSourceIp)).toEqual(Array(FREE_FAILURES.perSourceIp).fill(401));
    expect(answers.slice(FREE_FAILURES.perSourceIp + 1).every((status) => status === 429)).toBe(true);

    const valid = await ctx.api('agents/list/');
    expect(valid.status).toBe(200);
    expect(valid.headers.get('ratelimit-remaining')).not.toBeNull();

    // The stale key again, while its address waits out its delay: refused from what this instance knows, no store call.
    const storeCalls: string[] = [];
    const { doc } = ctx.platform.deps.store;
    const send = doc.send.bind(doc);
    doc.send = ((command: { input: { TableName?: string } }, ...rest: unknown[]) => {
      if (/apiKeys|rateLimits/.test(command.input.TableName ?? '')) storeCalls.push(command.input.TableName!);
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof doc.send;
    try {
      for (let index = 0; index < 20; index += 1) {
        const refused = await ctx.api('agents/list/', { key: stale });
        expect(refused.status).toBe(429);
        expect(refused.body.error?.code).toBe('RATE_LIMITED');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    } finally {
      doc.send = send;
    }
    expect(storeCalls).toEqual([]);
    expect((await ctx.api('agents/list/')).status).toBe(200);
  }, 60_000);

  it('slows guesses at the master key the same way', async () => {
    const provision = (key: string) =>
      fetch(`${ctx.platform.apiBaseUrl}/admin/workspaces/create/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-master-key': key },
        body: '{"name":"Guess","owner_email":"owner@guess.example"}',
      });
    clock += 60 * 60_000;
    for (let index = 0; index < FREE_FAILURES.perKeyPrefix; index += 1) expect((await provision(`MMMMMM${randomBase62(42)}`)).status).toBe(401);
    const limited = await provision(`MMMMMM${randomBase62(42)}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    clock += 2_000;
    expect((await provision(MASTER_KEY)).status).toBe(201);
  });
});
