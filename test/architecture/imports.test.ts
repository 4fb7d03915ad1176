import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph, ROOT } from './import-graph';

/** The source of every workspace (tests and benches may reach anywhere). */
const SOURCES = ['shared/src', 'webhooks/src', 'skill-sdk/src', 'embed/src', 'dashboard/src', 'lambdas/src', 'offline-model/src', 'cdk/lib'] as const;

/** The layers of lambdas/src, highest first (ARCHITECTURE.md, "Layers"): a file imports its own layer or lower ones only. */
const LAYERS = ['entries', 'surfaces', 'domains', 'infra'] as const;
const layerOf = (file: string): number => LAYERS.findIndex((layer) => file.startsWith(`lambdas/src/${layer}/`));

const graph = importGraph(SOURCES);

describe('imports', () => {
  it('are read in the source of every workspace', () => {
    const { workspaces } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
    expect(workspaces.filter((workspace) => !SOURCES.some((dir) => dir.startsWith(`${workspace}/`)))).toEqual([]);
  });

  it('form no circle, type-only imports included', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('never run up a layer of lambdas/src (entries > surfaces > domains > infra)', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => layerOf(target) >= 0 && layerOf(target) < layerOf(file)).map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('form no circle between the folders of domains/ and surfaces/ (a domain is one unit: its imports of another are a direction)', () => {
    const folderOf = (file: string) => /^lambdas\/src\/(domains|surfaces)\/[^/]+\//.exec(file)?.[0];
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      if (!from) continue;
      const edges = folders.get(from) ?? folders.set(from, new Set()).get(from)!;
      for (const to of targets.map(folderOf)) if (to && to !== from) edges.add(to);
    }
    expect(importCircles(new Map([...folders].map(([folder, edges]) => [folder, [...edges]])))).toEqual([]);
  });

  it('place every file of lambdas/src in a layer', () => {
    expect([...graph.keys()].filter((file) => file.startsWith('lambdas/src/') && layerOf(file) < 0)).toEqual([]);
  });
});
