import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Gzip budgets of what a browser downloads (bytes). */
export const BUDGETS = { loader: 2 * 1024, firstOpen: 22 * 1024 } as const;

/** The files a page downloads to show the FAB and open the panel: the loader and the widget chunk (Preact included); the
 * chat client and the pointer overlay are chunks of their own, loaded with the first open and the first UI action. */
export const FIRST_OPEN_FILES = ['loader.js', 'widget.js'] as const;

export function gzipSize(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

export function measureSizes(distDir: string) {
  const files = Object.fromEntries(FIRST_OPEN_FILES.map((name) => [name, gzipSize(join(distDir, name))])) as Record<(typeof FIRST_OPEN_FILES)[number], number>;
  return { files, loader: files['loader.js'], firstOpen: Object.values(files).reduce((sum, size) => sum + size, 0) };
}
