import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './repo-paths';

const BUNDLING_DIR = join(dirname(fileURLToPath(import.meta.url)), 'bundling');
/** The dist folder of the MCP server package as the lambdas resolve it (npm may keep another version at the root for the tools). */
const MCP_SERVER_DIST = dirname(createRequire(join(REPO_ROOT, 'lambdas/package.json')).resolve('@modelcontextprotocol/server'));

/**
 * How every Lambda of the platform is bundled: minified ESM for Node 22, `index.mjs` and the chunks it imports on demand.
 * The CDK stack (node-function.ts) and `npm run bench` read these settings, so what is measured is what is deployed.
 * The budget is the cold start (COLD_START_BUDGET_MS), not the size: a bundle weighs what its libraries weigh.
 *
 * Code splitting: every dynamic `import()` (the knowledge index and its Arrow tables, the language detector's 1.6 MB
 * of n-grams, PDF text extraction, an embedding provider) becomes a chunk of its own that Node reads only when that
 * import runs. In one file they would be parsed at every cold start even when never run: ELD's tables alone cost half
 * a second of CPU there.
 *
 * The AWS SDK is not bundled: the nodejs22.x runtime ships AWS SDK v3 (clients, lib-dynamodb, smithy core). The trade:
 * production runs the runtime's SDK release, which AWS rolls forward on its own schedule, not the version the lockfile
 * pins and the tests ran against; the SDK's v3 API is stable across minor releases, and a deploy that must pin it can
 * bundle it again by emptying `external`.
 */
export const LAMBDA_BUNDLING = {
  target: 'node22',
  // `es2015` first: a package that ships an ES2015 build beside its ES5 `module` one (tsyringe, under the passkeys'
  // X.509 verifier) comes without the down-levelled class and async helpers.
  mainFields: ['es2015', 'module', 'main'],
  minify: true,
  // A source map beside the bundle (mappings only), to map a logged stack trace back to the sources by hand. It is not
  // enabled at start: `--enable-source-maps` makes Node read and parse the whole map as the bundle loads, a large share
  // of every cold start (`npm run bench` shows the cold starts without it). A deploy that wants mapped stack traces in
  // its logs can set NODE_OPTIONS=--enable-source-maps on a function and pay that at each cold start.
  sourceMap: true,
  sourcesContent: false,
  // The licence texts that dependencies ask to keep go into `index.mjs.LEGAL.txt` beside the bundle (deployed with
  // it), not into the code every cold start reads.
  legalComments: 'external',
  // LanceDB (the knowledge index) is a native module (~155 MB a platform) that esbuild cannot bundle, imported only when
  // a knowledge index is opened (infra/search/lance-index.ts), with the Arrow library it shares with our code: both
  // come from the LanceDB layer (lancedb-layer.ts) of the functions that open the index.
  external: ['@aws-sdk/*', '@smithy/*', '@lancedb/lancedb', 'apache-arrow'],
  // Stand-ins only where the library itself offers the choice, each explained in its file (bundling/).
  alias: {
    // `ai` resolves a model given as a string id through the AI Gateway provider; the platform always passes the
    // model object of its MODEL setting, so the gateway is left out and a string id fails with the reason.
    '@ai-sdk/gateway': join(BUNDLING_DIR, 'ai-gateway-absent.ts'),
    // zod's own modules, with `locales` holding English alone, the locale zod configures itself with: the libraries
    // import zod as a namespace, which would keep every locale.
    zod: join(BUNDLING_DIR, 'zod-v4.ts'),
    'zod/v4': join(BUNDLING_DIR, 'zod-v4.ts'),
    'zod/v4/core': join(BUNDLING_DIR, 'zod-v4-core.ts'),
    'zod/v4-mini': join(BUNDLING_DIR, 'zod-v4-mini.ts'),
    // An alias also maps the subpaths of its key ('zod/v3' would become '…/zod-v4.ts/v3'); these stay zod's own.
    'zod/v3': 'zod/v3',
    'zod/v4/mini': 'zod/v4/mini',
    'zod/v4/locales/en.js': 'zod/v4/locales/en.js',
    // The MCP server package's shims as its own Cloudflare Workers shims have them: its Cloudflare Workers validator
    // instead of the Ajv copy in its Node shims (mcp-server-shims.ts).
    '@modelcontextprotocol/server/_shims': join(BUNDLING_DIR, 'mcp-server-shims.ts'),
    // That validator from the same copy of the package as the server the lambdas import, not the copy the shims' own
    // folder would find.
    '@modelcontextprotocol/server/validators/cf-worker': join(MCP_SERVER_DIST, 'validators/cfWorker.mjs'),
  },
  // Some CommonJS dependencies call require() for Node built-ins; an ES module has no require of its own.
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
} as const;

/**
 * The most a bundle's cold start may take: its import, handler construction included, in a fresh Node 22 process
 * with the runtime's AWS SDK resolvable, median over several processes on the 2-core machine `npm run bench` runs on.
 */
export const COLD_START_BUDGET_MS = 300;

/** The built-in offline model, a provider package of its own (offline-model/) that resolve-model.ts imports by name. */
const OFFLINE_MODEL = '@service/offline-model';

/**
 * The aliases that leave out the model providers a MODEL setting does not select (bundling/model-provider-not-deployed.ts):
 * the stack bundles each model-using function for the MODEL it deploys it with (`bedrock:…`, `openai:…`; unset or
 * `offline` needs neither hosted provider), and a hosted one leaves out the built-in offline model too. The trade:
 * changing MODEL to another provider, offline included, takes a deploy, not just an environment edit.
 */
export function providerAliases(model: string | undefined): Record<string, string> {
  const kind = model?.trim().split(':')[0];
  const notDeployed = join(BUNDLING_DIR, 'model-provider-not-deployed.ts');
  return {
    ...(kind === 'bedrock' ? {} : { '@ai-sdk/amazon-bedrock': notDeployed }),
    ...(kind === 'openai' ? {} : { '@ai-sdk/openai-compatible': notDeployed }),
    ...(kind === 'bedrock' || kind === 'openai' ? { [OFFLINE_MODEL]: notDeployed } : {}),
  };
}

/**
 * The esbuild options of a Lambda bundle as the stack builds it (node-function.ts): the stack, the bench and the
 * bundling tests bundle with these, plus their entry and output folder (`outdir`: `index.mjs` and `chunks/`).
 */
export const lambdaBuildOptions = (aliases: Record<string, string> = {}) => ({
  bundle: true,
  platform: 'node' as const,
  format: 'esm' as const,
  splitting: true,
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  target: LAMBDA_BUNDLING.target,
  mainFields: [...LAMBDA_BUNDLING.mainFields],
  minify: LAMBDA_BUNDLING.minify,
  sourcemap: LAMBDA_BUNDLING.sourceMap,
  sourcesContent: LAMBDA_BUNDLING.sourcesContent,
  legalComments: LAMBDA_BUNDLING.legalComments,
  external: [...LAMBDA_BUNDLING.external],
  alias: { ...LAMBDA_BUNDLING.alias, ...aliases },
  banner: { js: LAMBDA_BUNDLING.banner },
  logLevel: 'silent' as const,
});
