import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ServiceApiError } from '@service/skill-sdk';
import { executeTool } from '@service/skill-sdk/test';
import { loyalty, tierOf } from '../examples/loyalty/skill';

const api = {
  'skills/loyalty/balance': { points: 300 },
  'skills/loyalty/award': (params: Record<string, unknown>) => ({ points: 300 + Number(params.points) }),
};

describe('example: loyalty skill', () => {
  it('reports the balance and tier in English and Turkish', async () => {
    const en = await executeTool(loyalty, 'balance', {}, { api });
    expect(en.structuredContent).toEqual({ points: 300, tier: 'silver', message: 'You have 300 points (Silver tier).' });
    const tr = await executeTool(loyalty, 'balance', {}, { api, language: 'tr' });
    expect(tr.structuredContent).toMatchObject({ message: '300 puanınız var (Gümüş seviye).' });
  });

  it('lets an admin award points through the platform', async () => {
    const result = await executeTool(loyalty, 'award', { points: 50, reason: 'late delivery' }, { api, roles: ['admin'], language: 'tr' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({
      balance: 350,
      tier: 'silver',
      message: '50 puan eklendi: late delivery. Yeni bakiye: 350.',
    });
  });

  it('keeps members from awarding points', async () => {
    const result = await executeTool(loyalty, 'award', { points: 50, reason: 'late delivery' }, { api, roles: ['member'] });
    expect(result.structuredContent).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('refuses an award above the limit, naming the field', async () => {
    const result = await executeTool(loyalty, 'award', { points: 5000, reason: 'x' }, { api, roles: ['owner'] });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/points: .*500.*reason: /);
  });

  it('explains, in the caller language, that there is no customer', async () => {
    const result = await executeTool(loyalty, 'balance', {}, { api, userId: undefined, language: 'tr' });
    expect(result.structuredContent).toEqual({ error: { code: 'NO_CUSTOMER', message: 'Bu konuşmada henüz bir müşteri yok.' } });
  });

  it('passes a platform error code through', async () => {
    const result = await executeTool(
      loyalty,
      'balance',
      {},
      {
        api: () => {
          throw new ServiceApiError('SKILL_OAUTH_REQUIRED', 'Connect the loyalty provider first', 403);
        },
      },
    );
    expect(result.structuredContent).toEqual({ error: { code: 'SKILL_OAUTH_REQUIRED', message: 'Connect the loyalty provider first' } });
  });

  it('ranks tiers by points', () => {
    expect([0, 249, 250, 999, 1000].map(tierOf)).toEqual(['bronze', 'bronze', 'silver', 'silver', 'gold']);
  });

  it('survives bundling: its Lambda bundle imports and answers without the source tree beside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loyalty-bundle-'));
    try {
      // As the CDK bundles a Lambda: one ESM file, the AWS SDK left to the runtime.
      await build({
        entryPoints: [new URL('../examples/loyalty/lambda.ts', import.meta.url).pathname],
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: join(dir, 'index.mjs'),
        external: ['@aws-sdk/*'],
        banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
        logLevel: 'silent',
      });
      process.env.SKILL_BEARER = 'loyalty-bundle-bearer';
      const { handler } = (await import(pathToFileURL(join(dir, 'index.mjs')).href)) as {
        handler: (event: unknown) => Promise<{ statusCode: number; body: string }>;
      };
      const response = await handler({ rawPath: '/manifest', headers: {}, requestContext: { http: { method: 'GET' } } });
      expect(response.statusCode).toBe(200);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'loyalty', locales: ['en', 'tr'] });
    } finally {
      delete process.env.SKILL_BEARER;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
