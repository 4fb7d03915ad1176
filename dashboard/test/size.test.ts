import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const dist = resolve(import.meta.dirname, '../dist');
/** The ceiling for the JavaScript of the first screen, gzip. */
const FIRST_SCREEN_BUDGET = 60 * 1024;
const gzipSize = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** The module scripts index.html loads, and every chunk they import statically (not `import()`): the first screen. */
function firstScreen(): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((match) => match[1]!);
  const seen = new Set<string>();
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dist, file), 'utf8');
    for (const match of code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["']\.\/([^"']+\.js)["']/g)) queue.push(match[1]!);
  }
  return [...seen];
}

describe('dashboard build', () => {
  it('exists (npm run build -w dashboard)', () => {
    expect(existsSync(join(dist, 'index.html'))).toBe(true);
  });

  it(`loads at most ${FIRST_SCREEN_BUDGET} bytes of JavaScript (gzip) for the first screen`, () => {
    const files = firstScreen();
    const total = files.reduce((sum, file) => sum + gzipSize(file), 0);
    console.log(`dashboard first screen: ${files.join(', ')} = ${total} bytes gzip`);
    expect(files.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET);
  });

  it('loads every screen lazily: each is a content-hashed chunk the entry imports with import()', () => {
    const entry = firstScreen()[0]!;
    const code = readFileSync(join(dist, entry), 'utf8');
    const lazy = [...code.matchAll(/import\(["']\.\/([^"']+\.js)["']\)/g)].map((match) => match[1]!);
    for (const screen of [
      'agents',
      'approvals',
      'knowledge',
      'agent-settings',
      'agent-embed',
      'runs',
      'conversations',
      'insights',
      'credentials',
      'webhooks',
      'mcp',
      'roles',
      'usage',
      'members',
      'account',
    ]) {
      expect(
        lazy.some((file) => new RegExp(`^${screen}-[\\w-]{8}\\.js$`).test(file)),
        screen,
      ).toBe(true);
    }
    expect(firstScreen().some((file) => lazy.includes(file))).toBe(false);
  });

  it('has no inline script or style for the CSP to allow', () => {
    for (const page of readdirSync(dist).filter((file) => file.endsWith('.html'))) {
      const html = readFileSync(join(dist, page), 'utf8');
      expect(html, page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(html, page).not.toMatch(/<style|\sstyle=/);
    }
  });
});
