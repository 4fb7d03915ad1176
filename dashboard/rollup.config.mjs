import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The dashboard: one ES module entry (the shell and Sign in), each screen a lazy chunk, content-hashed names for all
 * (they are cached for a year); index.html and preview.html are written last with the hashed names. No inline script
 * or style anywhere, so the CSP needs neither `unsafe-inline` nor `unsafe-eval`.
 */
const CSP_NOTE = "<!-- served with: default-src 'self'; script-src 'self'; style-src 'self'; frame-ancestors 'none' -->";

/** uPlot's own layout rules (the Insights charts), served in the one stylesheet: the CSP allows no inline style. */
const UPLOT_CSS = createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css');

const pages = () => ({
  name: 'dashboard-pages',
  buildStart() {
    rmSync('dist', { recursive: true, force: true });
  },
  generateBundle(_options, bundle) {
    const css = this.getFileName(
      this.emitFile({ type: 'asset', name: 'dashboard.css', source: readFileSync('src/styles.css', 'utf8') + readFileSync(UPLOT_CSS, 'utf8') }),
    );
    const entry = (name) => Object.values(bundle).find((chunk) => chunk.type === 'chunk' && chunk.isEntry && chunk.name === name).fileName;
    const head = (title) =>
      `<!doctype html>\n${CSP_NOTE}\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<meta name="color-scheme" content="light dark"><title>${title}</title><link rel="icon" href="favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="${css}">`;
    this.emitFile({
      type: 'asset',
      fileName: 'index.html',
      source: `${head('Dashboard')}<script type="module" src="${entry('app')}"></script></head><body><div id="app"></div><noscript>The dashboard needs JavaScript.</noscript></body></html>\n`,
    });
    this.emitFile({
      type: 'asset',
      fileName: 'preview.html',
      source: `${head('Widget preview')}<script type="module" src="${entry('preview')}"></script></head><body class="preview-page"><main><h1 class="sr-only">Widget preview</h1></main></body></html>\n`,
    });
    this.emitFile({ type: 'asset', fileName: 'favicon.svg', source: readFileSync('public/favicon.svg') });
  },
});

export default {
  input: { app: 'src/main.tsx', preview: 'src/preview.ts' },
  output: {
    dir: 'dist',
    format: 'es',
    entryFileNames: '[name]-[hash].js',
    chunkFileNames: '[name]-[hash].js',
    assetFileNames: '[name]-[hash][extname]',
    // The WebAuthn helper loads with the first passkey action, under a name that says what it is.
    manualChunks: (id) => (id.includes('@simplewebauthn') ? 'webauthn' : undefined),
  },
  plugins: [
    nodeResolve({ browser: true }),
    esbuild({ target: 'es2020', jsx: 'automatic', jsxImportSource: 'preact', tsconfig: '../tsconfig.json' }),
    terser({ ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } }),
    pages(),
  ],
};
