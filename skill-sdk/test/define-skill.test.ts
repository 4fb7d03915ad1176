import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineSkill, SDK_VERSION, z } from '../src/index';
import packageJson from '../package.json';

const tool = { description: 'd', handler: async () => ({}) };

describe('defineSkill', () => {
  it('names tools code__action with capability code.action', () => {
    const skill = defineSkill({ code: 'crm', version: '1', defaultLocale: 'en', tools: { find_contact: tool } });
    expect([...skill.tools.values()].map((t) => [t.name, t.capability])).toEqual([['crm__find_contact', 'crm.find_contact']]);
  });

  it.each([
    [{ code: 'My Skill' }, /code: code must be lowercase/],
    [{ code: 'a__b' }, /code: code must not contain "__"/],
    [{ version: '' }, /version:/],
    [{ defaultLocale: 'english' }, /defaultLocale:/],
    [{ tools: {} }, /at least one tool/],
    [{ tools: { 'Bad Name': tool } }, /action must be lowercase/],
    [{ tools: { x: { description: 'd', input: { a: 'string' }, handler: tool.handler } } }, /tools.x.input.a: must be a schema built with z/],
    [{ tools: { x: { description: 'd' } } }, /tools.x.handler: must be a function/],
    [{ locales: { tr: { hi: 'Merhaba' } } }, /defaultLocale "en" has no messages/],
    [{ locales: { en: {} }, localesDir: '/tmp' }, /not both/],
  ])('refuses a wrong definition with a clear error (%#)', (patch, message) => {
    const base = { code: 'ok', version: '1', defaultLocale: 'en', tools: { x: tool } };
    expect(() => defineSkill({ ...base, ...patch } as never)).toThrow(message);
  });

  it('reads <language>.json files from localesDir', () => {
    const dir = mkdtempSync(join(tmpdir(), 'locales-'));
    try {
      writeFileSync(join(dir, 'en.json'), JSON.stringify({ hi: 'Hello' }));
      writeFileSync(join(dir, 'tr.json'), JSON.stringify({ hi: 'Merhaba' }));
      const skill = defineSkill({ code: 'a', version: '1', defaultLocale: 'en', localesDir: dir, tools: { x: tool } });
      expect(Object.keys(skill.locales).sort()).toEqual(['en', 'tr']);
      writeFileSync(join(dir, 'de.json'), '{broken');
      expect(() => defineSkill({ code: 'a', version: '1', defaultLocale: 'en', localesDir: dir, tools: { x: tool } })).toThrow(/de.json is not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('describes the input as JSON Schema', () => {
    const skill = defineSkill({
      code: 'a',
      version: '1',
      defaultLocale: 'en',
      tools: { x: { ...tool, input: { email: z.email().describe('Where to write'), count: z.number().int().default(1) } } },
    });
    expect(skill.tools.get('a__x')?.inputJsonSchema).toMatchObject({
      type: 'object',
      properties: { email: { type: 'string', format: 'email', description: 'Where to write' }, count: { type: 'integer', default: 1 } },
      required: ['email'],
    });
  });

  it('reports the package version', () => {
    expect(SDK_VERSION).toBe(packageJson.version);
    expect(SDK_VERSION).toBe('0.3.0');
  });
});
