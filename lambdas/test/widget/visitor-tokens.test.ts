import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { sseMessages } from '../support/sse';

// Signed visitor tokens (data-user-token): a JWT the host's server signs, HS256 with the agent's identity secret or
// RS256/ES256 with a key of the company's JWKS. A refused token answers as an anonymous visitor, the error code in
// x-visitor-identity-error; a grant with requires_verified_visitor holds only for a visitor with a valid token.

const ORIGIN = 'http://localhost:3000';
const ERROR_HEADER = 'x-visitor-identity-error';
const BOOK = 'Book a demo tomorrow at 10';
const nowS = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('signed visitor tokens', () => {
  // The JWKS is on loopback, which the outbound guard opens only locally.
  const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1' } });
  const url = (route: string) => `${ctx.platform.url}/v1/agents/${ctx.agentId}/${route}`;
  let secret: Uint8Array;
  let jwks: Server;
  let jwksUrl: string;
  const published: JWK[] = [];
  const rsa = generateKeyPair('RS256');
  const ec = generateKeyPair('ES256');

  beforeAll(async () => {
    const rotated = await ctx.api<{ identity_secret: string }>('agents/identity_secret/', { body: { agent_id: ctx.agentId } });
    secret = new TextEncoder().encode(rotated.body.data.identity_secret);
    published.push(
      { ...(await exportJWK((await rsa).publicKey)), kid: 'rsa-1', alg: 'RS256' },
      { ...(await exportJWK((await ec).publicKey)), kid: 'ec-1', alg: 'ES256' },
    );
    jwks = createServer((_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published })));
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => (jwks ? jwks.close(() => resolve()) : resolve())));

  const hs256 = (claims: Record<string, unknown>, key = secret, exp: number | null = nowS() + 3600) => {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' });
    return (exp === null ? jwt : jwt.setExpirationTime(exp)).sign(key);
  };

  const history = async (token: string) => {
    const response = await fetch(url('history'), { headers: { origin: ORIGIN, 'x-user-token': token } });
    expect(response.status).toBe(200);
    return { error: response.headers.get(ERROR_HEADER), body: (await response.json()) as { verified: boolean; conversationId: string | null } };
  };
  const chat = async (token: string | undefined, content: string, conversationId = crypto.randomUUID()) => {
    const response = await fetch(url('chat'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, ...(token ? { 'x-user-token': token } : {}) },
      body: JSON.stringify({ conversationId, visitorId: crypto.randomUUID(), locale: 'en', messages: [{ role: 'user', content }] }),
    });
    return {
      status: response.status,
      error: response.headers.get(ERROR_HEADER),
      events: sseMessages(await response.text()).map((event) => event.event ?? 'message'),
    };
  };

  it('verifies a valid HS256 token: the visitor has their conversation on another device', async () => {
    const token = await hs256({ sub: 'user-7', email: 'ada@example.com', plan: 'pro' });
    const conversationId = crypto.randomUUID();
    const first = await chat(token, 'Hello, where is the pricing?', conversationId);
    expect(first).toMatchObject({ status: 200, error: null });
    expect(first.events.at(-1)).toBe('done');
    expect(await history(token)).toEqual({ error: null, body: expect.objectContaining({ verified: true, conversationId }) });
  });

  it.each([
    ['expired', () => hs256({ sub: 'user-7' }, secret, nowS() - 120)],
    ['signed with another key', () => hs256({ sub: 'user-7' }, new TextEncoder().encode('not-the-identity-secret'))],
    ['without exp', () => hs256({ sub: 'user-7' }, secret, null)],
    ['with exp more than 24 h away', () => hs256({ sub: 'user-7' }, secret, nowS() + 25 * 3600)],
    ['alg: none', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'user-7', exp: nowS() + 600 })}.`],
    [
      'with a tampered attribute',
      async () => {
        const [header, , signature] = (await hs256({ sub: 'user-7', plan: 'basic' })).split('.');
        return `${header}.${b64({ sub: 'user-7', plan: 'enterprise', exp: nowS() + 3600 })}.${signature}`;
      },
    ],
    ['malformed', async () => 'not.a.jwt'],
  ])('refuses a token %s: VISITOR_TOKEN_INVALID, and the visitor goes on anonymous', async (_, make) => {
    const token = await make();
    expect(await history(token)).toEqual({ error: 'VISITOR_TOKEN_INVALID', body: { verified: false, conversationId: null, messages: [] } });
    const turn = await chat(token, 'Hello again');
    expect(turn).toMatchObject({ status: 200, error: 'VISITOR_TOKEN_INVALID' });
    expect(turn.events.at(-1)).toBe('done');
  });

  it("verifies RS256 and ES256 tokens against the company's JWKS, and refuses a key it does not publish", async () => {
    const set = await ctx.api<{ agent: { identity_jwks_url: string | null } }>('agents/update/', {
      body: { agent_id: ctx.agentId, identity_jwks_url: jwksUrl },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.agent.identity_jwks_url).toBe(jwksUrl);
    expect(openApiProblems('agentsUpdate', set as ApiResponse<unknown>)).toEqual([]);

    const signed = async (alg: 'RS256' | 'ES256', kid: string, key: CryptoKey, sub: string) =>
      new SignJWT({ sub, name: 'Ada' })
        .setProtectedHeader({ alg, kid })
        .setExpirationTime(nowS() + 600)
        .sign(key);
    for (const [alg, kid, pair] of [
      ['RS256', 'rsa-1', rsa],
      ['ES256', 'ec-1', ec],
    ] as const) {
      const sub = `jwks-${alg}`;
      const token = await signed(alg, kid, (await pair).privateKey, sub);
      await chat(token, 'Hello from a JWKS visitor');
      expect(await history(token)).toEqual({ error: null, body: expect.objectContaining({ verified: true }) });
    }
    const stranger = await generateKeyPair('RS256');
    const forged = await signed('RS256', 'rsa-1', stranger.privateKey, 'jwks-RS256');
    expect((await history(forged)).error).toBe('VISITOR_TOKEN_INVALID');
    // The identity secret still verifies HS256 tokens beside the JWKS.
    expect((await history(await hs256({ sub: 'user-7' }))).body.verified).toBe(true);
  });

  it('takes the older user hash only while the workspace allows it', async () => {
    const hashed = { origin: ORIGIN, 'x-user-id': 'user-7', 'x-user-hash': '0'.repeat(64) };
    const get = await ctx.api<{ identity: { allow_user_hmac: boolean } }>('visitors/identity_get/');
    expect(get.body.data.identity).toEqual({ allow_user_hmac: true });
    expect((await fetch(url('history'), { headers: hashed })).headers.get(ERROR_HEADER)).toBeNull();
    expect((await ctx.api('visitors/identity_set/', { body: { allow_user_hmac: false } })).status).toBe(200);
    const refused = await fetch(url('history'), { headers: hashed });
    expect(refused.headers.get(ERROR_HEADER)).toBe('VISITOR_TOKEN_INVALID');
    expect((await refused.json()) as unknown).toMatchObject({ verified: false });
    expect((await ctx.api<{ identity: { allow_user_hmac: boolean } }>('visitors/identity_get/')).body.data.identity).toEqual({ allow_user_hmac: false });
    expect((await ctx.api('visitors/identity_set/', { body: { allow_user_hmac: true } })).status).toBe(200);
  });

  it('runs a requires_verified_visitor grant only for a visitor with a valid token', async () => {
    expect((await ctx.api('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'calendar' } })).status).toBe(200);
    const grant = await ctx.api<{ grant: { requires_verified_visitor: boolean } }>('grants/create/', {
      body: { role: 'public', capability: 'calendar.create_event', requires_verified_visitor: true },
    });
    expect(grant.status).toBe(201);
    expect(grant.body.data.grant.requires_verified_visitor).toBe(true);

    // Positive control first: with a valid token the action is put to the visitor.
    expect((await chat(await hs256({ sub: 'user-7' }), BOOK)).events).toContain('confirm');
    expect((await chat(undefined, BOOK)).events).not.toContain('confirm');
    expect((await chat(await hs256({ sub: 'user-7' }, secret, nowS() - 120), BOOK)).events).not.toContain('confirm');
  });
});
