import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, ROOT } from './import-graph';

/**
 * Where the store may be called (ARCHITECTURE.md, "Layers"): the infrastructure itself, and each domain's repository
 * modules (`repository.ts`, `<thing>-repository.ts`), where storage errors are translated. Domain logic, surfaces and
 * entries call repositories.
 */
const mayCallTheStore = (file: string): boolean =>
  file.startsWith('lambdas/src/infra/') || (file.startsWith('lambdas/src/domains/') && /(^|\/|-)repository\.ts$/.test(file));

describe('store calls', () => {
  it('live only in the infrastructure and in the domains’ repository modules', () => {
    const callers = [...importGraph(['lambdas/src']).keys()].filter((file) => /\bstore\.(doc|raw)\.send\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(callers.filter((file) => !mayCallTheStore(file))).toEqual([]);
  });
});
