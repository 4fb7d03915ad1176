import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, ROOT } from './import-graph';

/**
 * Where the store may be called (ARCHITECTURE.md, "Storage"): the infrastructure itself, and each domain's repository
 * modules (`repository.ts`, `<thing>-repository.ts`), where storage errors are translated. Domain logic, surfaces and
 * entries call repositories.
 */
const isRepository = (file: string): boolean => /(^|-)repository\.ts$/.test(basename(file));
const mayCallTheStore = (file: string): boolean => file.startsWith('lambdas/src/infra/') || (file.startsWith('lambdas/src/domains/') && isRepository(file));

/** The domain folder a file of lambdas/src belongs to (`runs` for domains/runs/runtime/runner.ts), if any. */
const domainOf = (file: string): string | undefined => /^lambdas\/src\/domains\/([^/]+)\//.exec(file)?.[1];

const graph = importGraph(['lambdas/src']);
const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('store calls', () => {
  it('live only in the infrastructure and in the domains’ repository modules', () => {
    const callers = [...graph.keys()].filter((file) => /\bstore\.(doc|raw)\.send\(/.test(source(file)));
    expect(callers.filter((file) => !mayCallTheStore(file))).toEqual([]);
  });

  it('are written as expressions only there: the other modules call named repository operations', () => {
    const writers = [...graph.keys()].filter((file) => /\b(Update|Condition|KeyCondition|Filter)Expression\b/.test(source(file)));
    expect(writers.filter((file) => !mayCallTheStore(file))).toEqual([]);
  });
});

describe('repositories', () => {
  it('are imported by their own domain only: another domain goes through that domain’s public modules', () => {
    const reaching = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => isRepository(target) && domainOf(file) !== undefined && domainOf(target) !== domainOf(file))
        .map((target) => `${file} -> ${target}`),
    );
    expect(reaching).toEqual([]);
  });

  it('are never imported by surfaces or entries', () => {
    const reaching = [...graph].flatMap(([file, targets]) =>
      /^lambdas\/src\/(surfaces|entries)\//.test(file) ? targets.filter(isRepository).map((target) => `${file} -> ${target}`) : [],
    );
    expect(reaching).toEqual([]);
  });
});
