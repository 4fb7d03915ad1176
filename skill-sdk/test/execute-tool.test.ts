import { describe, expect, it } from 'vitest';
import { defineSkill, serviceApi, SkillError, z } from '../src/index';
import { createMockContext, executeTool, TEST_IDS } from '../src/test';

let slowSawAbort = false;

const tasks = defineSkill({
  code: 'tasks',
  version: '1.0.0',
  defaultLocale: 'en',
  locales: {
    en: {
      created: 'Task {{title}} created',
      errors: { not_found: 'No task {id}' },
      only_en: 'English only',
    },
    tr: {
      created: '{{title}} görevi oluşturuldu',
      errors: { not_found: '{id} numaralı görev yok' },
    },
  },
  tools: {
    create: {
      description: 'Create a task',
      input: { title: z.string().min(1).max(200), due: z.iso.date().optional() },
      handler: async ({ title, due }, ctx) => ({ message: ctx.t('created', { title }), due: due ?? null, account: ctx.accountId }),
    },
    purge: {
      description: 'Delete every task',
      roles: ['owner', 'admin'],
      annotations: { destructiveHint: true },
      handler: async () => ({ purged: true }),
    },
    translate: {
      description: 'Echo a translation',
      input: { key: z.string(), fallback: z.string().optional() },
      handler: async ({ key, fallback }, ctx) => ({ text: ctx.t(key, { id: 7 }, fallback) }),
    },
    broken: {
      description: 'Always fails',
      handler: async () => {
        throw new Error('database exploded');
      },
    },
    coded: {
      description: 'Fails with a code',
      handler: async () => {
        throw new SkillError('SKILL_OAUTH_REQUIRED', 'Connect your calendar first');
      },
    },
    slow: {
      description: 'Waits for its signal',
      handler: (_input, ctx) =>
        new Promise<object>((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            slowSawAbort = true;
            resolve({ aborted: true });
          }),
        ),
    },
    huge: {
      description: 'Returns a large result',
      handler: async () => ({ blob: 'x'.repeat(10_000) }),
    },
    list: {
      description: 'Returns an array (not allowed)',
      handler: async () => [1, 2, 3],
    },
    remote: {
      description: 'Calls the platform',
      input: { title: z.string() },
      handler: async ({ title }, ctx) => ({ created: await serviceApi(ctx, 'skills/tasks/insert', { title }) }),
    },
  },
});

describe('executeTool', () => {
  it('runs a handler with valid input; isError is absent on success', async () => {
    const result = await executeTool(tasks, 'create', { title: 'Call Ayşe', due: '2025-03-01' });
    expect(result).not.toHaveProperty('isError');
    expect(result.structuredContent).toEqual({ message: 'Task Call Ayşe created', due: '2025-03-01', account: TEST_IDS.accountId });
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  });

  it('accepts the model-facing name too', async () => {
    const result = await executeTool(tasks, 'tasks__create', { title: 'x' });
    expect(result.isError).toBeUndefined();
  });

  it('rejects invalid input before the handler runs, naming the field', async () => {
    const result = await executeTool(tasks, 'create', { title: '', due: 'tomorrow' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    expect(result.content[0]!.text).toMatch(/title: .*\bdue: /);
  });

  it('refuses a caller whose role the tool does not list, and admits one it does', async () => {
    const denied = await executeTool(tasks, 'purge', {}, { roles: ['member'] });
    expect(denied.isError).toBe(true);
    expect(denied.structuredContent).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect((await executeTool(tasks, 'purge', {}, { roles: ['admin'] })).structuredContent).toEqual({ purged: true });
  });

  it('denies a tool without roles when no grant is given, and lets a grant override roles', async () => {
    expect((await executeTool(tasks, 'create', { title: 'x' }, { roles: ['owner'] })).isError).toBe(true);
    expect((await executeTool(tasks, 'purge', {}, { roles: ['owner'], capabilities: ['tasks.create'] })).isError).toBe(true);
    expect((await executeTool(tasks, 'purge', {}, { roles: ['public'], capabilities: ['tasks.purge'] })).isError).toBeUndefined();
  });

  it('turns a thrown error into an isError result', async () => {
    const result = await executeTool(tasks, 'broken', {});
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: { code: 'TOOL_FAILED', message: 'tasks__broken failed: database exploded' } });
    const coded = await executeTool(tasks, 'coded', {});
    expect(coded.structuredContent).toEqual({ error: { code: 'SKILL_OAUTH_REQUIRED', message: 'Connect your calendar first' } });
  });

  it('gives up on a handler past the timeout and aborts its signal', async () => {
    const started = Date.now();
    const result = await executeTool(tasks, 'slow', {}, {}, { timeoutMs: 50 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'TOOL_TIMEOUT' } });
    expect(slowSawAbort).toBe(true);
  });

  it('caps the response size', async () => {
    const result = await executeTool(tasks, 'huge', {}, {}, { maxResponseBytes: 5_000 });
    expect(result.structuredContent).toMatchObject({ error: { code: 'RESPONSE_TOO_LARGE' } });
    expect((await executeTool(tasks, 'huge', {})).isError).toBeUndefined();
  });

  it('refuses a handler result that is not an object', async () => {
    expect((await executeTool(tasks, 'list', {})).content[0]!.text).toMatch(/returned an array/);
  });

  it('throws for an unknown tool name (a mistake in the test itself)', async () => {
    await expect(executeTool(tasks, 'nope', {})).rejects.toThrow(/has no tool "nope"/);
  });

  it('answers serviceApi from the mock and records the call', async () => {
    const ok = await executeTool(tasks, 'remote', { title: 'a' }, { api: { 'skills/tasks/insert': (p: Record<string, unknown>) => ({ id: 1, ...p }) } });
    expect(ok.structuredContent).toEqual({ created: { id: 1, title: 'a' } });
    const unmocked = await executeTool(tasks, 'remote', { title: 'a' });
    expect(unmocked.structuredContent).toMatchObject({ error: { code: 'API_NOT_MOCKED' } });
  });
});

describe('translation fallback through ctx.t', () => {
  const t = async (language: string, key: string, fallback?: string) =>
    (await executeTool(tasks, 'translate', { key, fallback }, { language })).structuredContent.text;

  it('1. uses the target language, including nested keys and a regional tag', async () => {
    expect(await t('tr', 'errors.not_found')).toBe('7 numaralı görev yok');
    expect(await t('tr-TR', 'errors.not_found')).toBe('7 numaralı görev yok');
  });
  it('2. falls back to the default locale', async () => {
    expect(await t('tr', 'only_en')).toBe('English only');
    expect(await t('de', 'errors.not_found')).toBe('No task 7');
  });
  it('3. falls back to the fallback argument, interpolated', async () => {
    expect(await t('tr', 'missing.key', 'Fallback {id}')).toBe('Fallback 7');
  });
  it('4. falls back to the key itself', async () => {
    expect(await t('tr', 'missing.key')).toBe('missing.key');
  });
  it('interpolates {var} and {{var}}, leaves unknown placeholders, and never throws', () => {
    const ctx = createMockContext({ skill: tasks, language: 'en' });
    expect(ctx.t('created', { title: 'A' })).toBe('Task A created');
    expect(ctx.t('errors.not_found')).toBe('No task {id}');
    const hostile = {
      toString: () => {
        throw new Error('boom');
      },
    };
    expect(ctx.t('created', { title: hostile })).toBe('created');
    expect(ctx.t(undefined as unknown as string)).toBe('undefined');
  });
});

describe('createMockContext', () => {
  it('gives test identities, a role, a normalized language, and drops non-UUID ids', () => {
    const ctx = createMockContext({ language: 'pt_br', accountId: '42' });
    expect(ctx).toMatchObject({ language: 'pt-BR', roles: ['member'], companyId: TEST_IDS.companyId, userId: TEST_IDS.userId });
    expect(ctx.accountId).toBeUndefined();
    expect(createMockContext({ accountId: TEST_IDS.companyId }).accountId).toBe(TEST_IDS.companyId);
    expect(createMockContext({ language: '!!' }).language).toBe('en');
  });

  it('keeps the turn token out of serialization and logs', () => {
    const ctx = createMockContext({ turnToken: 'secret-token-value' });
    expect(ctx.turnToken).toBe('secret-token-value');
    expect(JSON.stringify(ctx)).not.toContain('secret-token-value');
    expect(Object.keys(ctx)).not.toContain('turnToken');
  });

  it('records serviceApi calls', async () => {
    const ctx = createMockContext({ skill: tasks, api: { 'skills/tasks/count': { count: 3 } } });
    expect(await serviceApi(ctx, 'skills/tasks/count', { open: true })).toEqual({ count: 3 });
    expect(ctx.apiCalls).toEqual([{ method: 'skills/tasks/count', params: { open: true } }]);
    await expect(serviceApi(ctx, 'skills/other/count')).rejects.toMatchObject({ code: 'INVALID_METHOD' });
    await expect(serviceApi(ctx, 'contacts/create')).rejects.toMatchObject({ code: 'INVALID_METHOD' });
  });
});
