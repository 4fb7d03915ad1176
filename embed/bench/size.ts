import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import { rollup, type RollupOptions } from 'rollup';
import type { Browser } from 'playwright-core';

/** Gzip budgets of what a browser downloads (bytes): the loader alone, and all it takes to show the FAB and open the panel. */
export const BUDGETS = { loader: 2 * 1024, firstOpen: 22 * 1024 } as const;

const gzip = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;

export function gzipSize(file: string): number {
  return gzip(readFileSync(file));
}

export interface FirstOpen {
  /** Each widget file the browser fetched (`loader.js`, `widget.js`, chunks, `avatar.svg`), its gzip size. */
  files: Record<string, number>;
  total: number;
}

/**
 * Shows the FAB and opens the panel in Chromium, on a page with nothing but the one-line embed, and weighs every file
 * the browser fetched from /embed/ for it (gzip, as a server would send it), lazy chunks and the avatar included.
 */
export async function measureFirstOpen(browser: Browser, platformUrl: string, agentId: string): Promise<FirstOpen> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const sizes: Promise<[string, number]>[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith('/embed/')) sizes.push(response.body().then((body) => [pathname.slice('/embed/'.length), gzip(body)]));
    });
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>First open</title></head><body>
      <script src="/embed/loader.js" data-agent-id="${agentId}" data-show-delay="0" data-teaser-delay="60000" data-idle-nudge-delay="0" async></script></body></html>`;
    await page.route(`${platformUrl}/first-open.html`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(`${platformUrl}/first-open.html`);
    await page.click('#service-chat .scw-fab[data-ready=true]');
    await page.waitForSelector('#service-chat .scw-panel');
    // Strings, not functions: tsx would wrap named functions in a helper the page does not have.
    await page.waitForFunction(`[...document.getElementById('service-chat').shadowRoot.querySelectorAll('img')].every((img) => img.complete)`);
    // Whatever opening starts loading (a prefetched chunk) counts too: wait until the network is quiet.
    await page.waitForLoadState('networkidle');
    const files = Object.fromEntries(await Promise.all(sizes));
    return { files, total: Object.values(files).reduce((sum, size) => sum + size, 0) };
  } finally {
    await context.close();
  }
}

export interface ModuleSize {
  module: string;
  /** Its code as the chunk has it (tree-shaken), minified alone, and that gzipped alone: a module's share, not an exact cut. */
  minified: number;
  gzip: number;
}

export interface ChunkSizes {
  chunk: string;
  gzip: number;
  modules: ModuleSize[];
}

/**
 * The per-module size report of the widget build: each chunk of the loader and the widget (as `rollup.config.mjs`
 * builds them) with its modules, largest first. Gzip works across a whole file, so the modules' figures add up to more
 * than the chunk's; they say where the bytes are.
 */
export async function moduleSizes(embedDir: string): Promise<ChunkSizes[]> {
  const cwd = process.cwd();
  // The config's paths (tsconfig, public/) are relative to the package, as `npm run build -w embed` runs it.
  process.chdir(embedDir);
  try {
    const configs = (await import(`${embedDir}/rollup.config.mjs`)).default as RollupOptions[];
    const report: ChunkSizes[] = [];
    for (const config of configs.slice(0, 2)) {
      const bundle = await rollup({ ...config, onwarn: () => undefined });
      const { output } = await bundle.generate(Array.isArray(config.output) ? config.output[0]! : config.output!);
      await bundle.close();
      for (const chunk of output) {
        if (chunk.type !== 'chunk') continue;
        const modules = await Promise.all(
          Object.entries(chunk.modules)
            .filter(([, module]) => module.code)
            .map(async ([id, module]) => {
              const { code } = await transform(module.code!, { minify: true, loader: 'js' });
              return {
                module: id
                  .replace(/^.*node_modules\//, '')
                  .replace(`${embedDir}/`, '')
                  .replace(/^.*\/shared\//, 'shared/'),
                minified: code.length,
                gzip: gzip(code),
              };
            }),
        );
        report.push({ chunk: chunk.fileName, gzip: gzip(chunk.code), modules: modules.sort((a, b) => b.gzip - a.gzip) });
      }
    }
    return report;
  } finally {
    process.chdir(cwd);
  }
}
