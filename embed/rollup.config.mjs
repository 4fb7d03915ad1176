import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { dts } from 'rollup-plugin-dts';
import { readFileSync } from 'node:fs';
import { optimize } from 'svgo';
import ts from 'typescript';

/**
 * Static files the widget links to (the default avatar), copied next to the chunks; an SVG without its comments and
 * indentation (SVGO, only those two: its ids and views are what the widget addresses), as the first open fetches it.
 */
const copyPublic = (files) => ({
  name: 'copy-public',
  generateBundle() {
    for (const fileName of files) {
      const source = readFileSync(`public/${fileName}`, 'utf8');
      this.emitFile({ type: 'asset', fileName, source: fileName.endsWith('.svg') ? optimize(source, { plugins: ['removeComments'] }).data : source });
    }
  },
});

const compile = () => esbuild({ target: 'es2020', jsx: 'automatic', jsxImportSource: 'preact', tsconfig: '../tsconfig.json' });
const minify = () => terser({ ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } });

const NPM_ENTRIES = { index: 'src/index.ts', react: 'src/react/index.ts' };
const NPM_EXTERNAL = (id) => /^(preact|@preact\/signals|react|react-dom|lucide-react|eventsource-parser)(\/|$)/.test(id);

export default [
  // The script-tag loader: a classic script, so a plain IIFE.
  {
    input: 'src/loader.ts',
    output: { file: 'dist/loader.js', format: 'iife' },
    plugins: [nodeResolve({ browser: true }), compile(), minify()],
  },
  // The widget chunk the loader imports: Preact and everything needed to open the panel in one ES module; the pointer
  // overlay in its own chunk, loaded with the first UI action.
  {
    input: 'src/widget/entry.ts',
    // The overlay chunk may import shared code from widget.js itself (no third file on the way to the panel).
    preserveEntrySignatures: 'allow-extension',
    output: { dir: 'dist', entryFileNames: 'widget.js', chunkFileNames: 'widget-[name]-[hash].js', format: 'es' },
    plugins: [nodeResolve({ browser: true }), compile(), minify(), copyPublic(['avatar.svg'])],
  },
  // The npm package: ESM for bundlers, dependencies and peers left external. The React entry is a client module for
  // React Server Components; the widget UI it imports lazily becomes a chunk of its own.
  {
    input: NPM_ENTRIES,
    output: {
      dir: 'dist/npm',
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: '[name]-[hash].js',
      banner: (chunk) => (chunk.isEntry && chunk.name === 'react' ? '"use client";' : ''),
    },
    external: NPM_EXTERNAL,
    // The private protocol package is bundled in; the peers and dependencies above stay imports.
    plugins: [nodeResolve({ browser: true }), compile()],
  },
  // Its declarations, bundled per entry so every import inside them resolves under node16, nodenext and bundler; the
  // private workspace package (the chat protocol types) is inlined, only the published peers stay imports.
  {
    input: NPM_ENTRIES,
    output: { dir: 'dist/types', format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: '[name]-[hash].d.ts' },
    external: NPM_EXTERNAL,
    plugins: [
      dts({
        includeExternal: ['@service/shared'],
        compilerOptions: { allowImportingTsExtensions: false, noEmit: false, moduleResolution: ts.ModuleResolutionKind.Bundler },
      }),
    ],
  },
];
