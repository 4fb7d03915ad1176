import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mintTurnToken, TURN_TOKEN_TTL_SECONDS, verifyTurnToken } from '../src/index';
import { turnTokenVerifier } from '../src/verified-tokens';

const secret = 'another-turn-token-key-0123456789abcdef';
const accountId = '2f1c7a52-9b0e-4d5a-8c3e-7d6f5a4b3c2d';
const companyId = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const now = 1_750_000_000;

describe('turn tokens', () => {
  it('round-trips the claims and binds the token to the account', async () => {
    const token = await mintTurnToken({ accountId, companyId, skill: 'crm', roles: ['member'], capabilities: ['crm.find_contact'] }, { secret, now });
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(await verifyTurnToken(token, { secret, skill: 'crm', now: now + 10 })).toEqual({
      accountId,
      companyId,
      userId: undefined,
      roles: ['member'],
      capabilities: ['crm.find_contact'],
      expiresAt: now + TURN_TOKEN_TTL_SECONDS,
    });
  });

  it('lives 120 seconds', async () => {
    const token = await mintTurnToken({ accountId }, { secret, now });
    await expect(verifyTurnToken(token, { secret, now: now + 110 })).resolves.toMatchObject({ accountId });
    await expect(verifyTurnToken(token, { secret, now: now + 130 })).rejects.toMatchObject({ code: 'TURN_TOKEN_EXPIRED' });
  });

  it('refuses a tampered token, a token signed with another key, and a token for another skill', async () => {
    const token = await mintTurnToken({ accountId, skill: 'crm' }, { secret, now });
    const [head, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherAccount = Buffer.from(JSON.stringify({ ...claims, sub: companyId })).toString('base64url');
    await expect(verifyTurnToken(`${head}.${otherAccount}.${signature}`, { secret, now })).rejects.toMatchObject({ code: 'TURN_TOKEN_INVALID' });
    await expect(verifyTurnToken(token, { secret: `${secret}-other`, now })).rejects.toMatchObject({ code: 'TURN_TOKEN_INVALID' });
    await expect(verifyTurnToken(token, { secret, skill: 'billing', now })).rejects.toMatchObject({ code: 'TURN_TOKEN_INVALID' });
    await expect(verifyTurnToken('not-a-jwt', { secret, now })).rejects.toMatchObject({ code: 'TURN_TOKEN_INVALID' });
  });

  it('never puts the token in an error message', async () => {
    const token = await mintTurnToken({ accountId }, { secret, now });
    const error = await verifyTurnToken(token, { secret, now: now + 999 }).catch((e: Error) => e);
    expect(String(error)).not.toContain(token.split('.')[2]);
  });

  it('refuses to mint for a non-UUID account or with a short key', async () => {
    await expect(mintTurnToken({ accountId: '12345' }, { secret })).rejects.toThrow(/accountId/);
    await expect(mintTurnToken({ accountId, userId: 'u-1' }, { secret })).rejects.toThrow(/userId/);
    await expect(mintTurnToken({ accountId }, { secret: 'short' })).rejects.toMatchObject({ code: 'TURN_TOKEN_SECRET_MISSING' });
  });

  it('refuses a validly signed token that lives longer than 120 s', async () => {
    const { SignJWT } = await import('jose');
    const long = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('service-platform')
      .setSubject(accountId)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode(secret));
    await expect(verifyTurnToken(long, { secret, now: now + 1 })).rejects.toMatchObject({ code: 'TURN_TOKEN_INVALID' });
  });

  it('refuses another algorithm, an unknown extension, no signature, bad times or issuer', async () => {
    // Signed by hand with the right key, as jose refuses to sign some of these.
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const signed = async (header: Record<string, unknown>, claims: Record<string, unknown>, alg = 'HS256') => {
      const input = `${part({ ...header, alg })}.${part({ iss: 'service-platform', sub: accountId, iat: now, exp: now + 60, ...claims })}`;
      return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
    };
    const refused = async (token: string, code = 'TURN_TOKEN_INVALID') => expect(verifyTurnToken(token, { secret, now })).rejects.toMatchObject({ code });
    await expect(verifyTurnToken(await signed({}, {}), { secret, now })).resolves.toMatchObject({ accountId });
    await refused(await signed({}, {}, 'HS512'));
    await refused(await signed({ crit: ['exp'] }, {}));
    const [head, payload, signature] = (await signed({}, {})).split('.') as [string, string, string];
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    await refused(`${none}.${payload}.`);
    await refused(`${none}.${payload}.${signature}`);
    await refused(`${head}..${signature}`);
    await refused(await signed({}, { iss: 'someone-else' }));
    await refused(await signed({}, { iss: undefined }));
    await refused(await signed({}, { nbf: now + 60 }));
    await refused(await signed({}, { iat: now + 60, exp: now + 120 }));
    await refused(await signed({}, { iat: now - 200, exp: now - 100 }), 'TURN_TOKEN_EXPIRED');
    await refused(await signed({}, { iat: now - 126, exp: now + 1 }), 'TURN_TOKEN_EXPIRED');
    await refused(await signed({}, { exp: undefined }));
    await refused(await signed({}, { aud: 7 }));
    await expect(verifyTurnToken(await signed({}, { iat: now - 4, nbf: now + 4, exp: now - 4 }), { secret, now })).resolves.toMatchObject({ accountId });
  });

  it('drops identity claims that are not UUIDs', async () => {
    const { SignJWT } = await import('jose');
    const token = await new SignJWT({ cid: 17, uid: 'user-9' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('service-platform')
      .setSubject(accountId)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(secret));
    expect(await verifyTurnToken(token, { secret, now })).toMatchObject({ accountId, companyId: undefined, userId: undefined });
  });
});

describe('the skill-side verifier', () => {
  afterEach(() => vi.useRealTimers());

  it('remembers a verified token only until it expires, and never a bad one', async () => {
    const verify = turnTokenVerifier('crm', secret);
    const issued = Math.floor(Date.now() / 1000) - 100; // 20 s left
    const token = await mintTurnToken({ accountId }, { secret, now: issued });
    await expect(verify(token)).resolves.toMatchObject({ accountId });
    await expect(verify(`${token}x`)).rejects.toMatchObject({ code: 'TURN_TOKEN_INVALID' });
    vi.useFakeTimers({ now: (issued + 130) * 1000, toFake: ['Date'] });
    await expect(verify(token)).rejects.toMatchObject({ code: 'TURN_TOKEN_EXPIRED' });
  });

  it('checks the signature once for requests that bring the same token at the same time, and again for a bad one', async () => {
    const verify = turnTokenVerifier('crm', secret);
    const token = await mintTurnToken({ accountId }, { secret });
    const signatureChecks = vi.spyOn(crypto.subtle, 'verify');
    try {
      const callers = await Promise.all([verify(token), verify(token), verify(token), verify(token)]);
      expect(callers.map((caller) => caller.accountId)).toEqual([accountId, accountId, accountId, accountId]);
      expect(signatureChecks).toHaveBeenCalledTimes(1);
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const forged = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      const refusals = await Promise.allSettled([verify(forged), verify(forged)]);
      expect(refusals.map((refusal) => refusal.status === 'rejected' && (refusal.reason as { code: string }).code)).toEqual([
        'TURN_TOKEN_INVALID',
        'TURN_TOKEN_INVALID',
      ]);
      await expect(verify(forged)).rejects.toMatchObject({ code: 'TURN_TOKEN_INVALID' });
      expect(signatureChecks).toHaveBeenCalledTimes(3);
    } finally {
      signatureChecks.mockRestore();
    }
  });
});
