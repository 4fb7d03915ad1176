import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './repo-paths';

const BUNDLING_DIR = join(dirname(fileURLToPath(import.meta.url)), 'bundling');
/** The dist folder of the MCP server package as the lambdas resolve it (npm may keep another version at the root for the tools). */
const MCP_SERVER_DIST = dirname(createRequire(join(REPO_ROOT, 'lambdas/package.json')).resolve('@modelcontextprotocol/server'));

/**
 * How every Lambda of the platform is bundled: one minified ESM file for Node 22. The CDK stack (node-function.ts) and
 * `npm run bench` read these settings, so what is measured is what is deployed.
 *
 * The AWS SDK is not bundled: the nodejs22.x runtime ships AWS SDK v3 (clients, lib-dynamodb, smithy core), and
 * leaving it out takes 300 to 400 KB off every bundle. The trade: production runs the runtime's SDK release, which AWS
 * rolls forward on its own schedule, not the version the lockfile pins and the tests ran against; the SDK's v3 API is
 * stable across minor releases, and a deploy that must pin it can bundle it again by emptying `external`.
 */
export const LAMBDA_BUNDLING = {
  target: 'node22',
  // `es2015` first: a package that ships an ES2015 build beside its ES5 `module` one (tsyringe, under the passkeys'
  // X.509 verifier) comes without the down-levelled class and async helpers.
  mainFields: ['es2015', 'module', 'main'],
  minify: true,
  // The licence texts that dependencies ask to keep go into `index.mjs.LEGAL.txt` beside the bundle (deployed with
  // it), not into the code every cold start reads.
  legalComments: 'external',
  // The nodejs22.x runtime's AWS SDK v3 (see above): neither the clients nor their smithy core are bundled.
  external: ['@aws-sdk/*', '@smithy/*'],
  // Stand-ins, each with its trade in its file (bundling/) and README's benchmarks; cdk/test checks that they change
  // nothing the platform does (ajv-on-cfworker.test.ts, bundle-stand-ins.test.ts: model calls through both providers,
  // their schemas and English error messages, bundled against unbundled).
  alias: {
    // The MCP SDK constructs an Ajv validator (with ajv-formats, about 130 KB) for tool output schemas and elicitation
    // forms; in a bundle the same Ajv API runs on @cfworker/json-schema instead.
    ajv: join(BUNDLING_DIR, 'ajv-on-cfworker.ts'),
    'ajv-formats': join(BUNDLING_DIR, 'ajv-formats-noop.ts'),
    // `ai` imports the AI Gateway provider (about 135 KB) only to resolve a model given as a string id; the platform
    // always passes the model object of its MODEL setting. A string id fails with the reason.
    '@ai-sdk/gateway': join(BUNDLING_DIR, 'ai-gateway-absent.ts'),
    // @ai-sdk/amazon-bedrock imports the Anthropic provider's internals (one 110 KB module esbuild cannot trim) for
    // two small functions; the provider-defined Anthropic tools, which the platform never passes, fail with the reason.
    '@ai-sdk/anthropic/internal': join(BUNDLING_DIR, 'anthropic-internal-for-bedrock.ts'),
    // One copy of the AI SDK's provider packages: @ai-sdk/amazon-bedrock (and its Anthropic internals) pin
    // provider-utils 5.0.51 and provider 4.0.19, where `ai` and the other providers use 5.0.81 and 4.0.38 (a second copy,
    // about 32 KB). The bundles take the newer copy for all: same major version, the Bedrock calls the same (the probe).
    '@ai-sdk/provider-utils': join(REPO_ROOT, 'node_modules/ai/node_modules/@ai-sdk/provider-utils/dist/index.js'),
    '@ai-sdk/provider': join(REPO_ROOT, 'node_modules/@ai-sdk/provider/dist/index.js'),
    // The AI SDK providers and the MCP SDK import zod as a namespace (`{ z }`, `* as z4mini`), which esbuild cannot
    // tree-shake: it kept all of zod's locales (about 260 KB). The same zod modules, with `locales` English alone (the
    // locale zod sets by default); `z.config(z.locales.fr())` would fail in a bundle, and nothing calls it. Nor do the
    // namespaces carry zod's opt-in compiler and `fromJSONSchema` (about 44 KB), which no bundled module calls
    // (zod-compile-absent.ts).
    zod: join(BUNDLING_DIR, 'zod-v4.ts'),
    'zod/v4': join(BUNDLING_DIR, 'zod-v4.ts'),
    'zod/v4/core': join(BUNDLING_DIR, 'zod-v4-core.ts'),
    'zod/v4-mini': join(BUNDLING_DIR, 'zod-v4-mini.ts'),
    // An alias also maps the subpaths of its key ('zod/v3' would become '…/zod-v4.ts/v3'); these stay zod's own.
    'zod/v3': 'zod/v3',
    'zod/v4/mini': 'zod/v4/mini',
    'zod/v4/locales/en.js': 'zod/v4/locales/en.js',
    // lru-cache (18 KB) for the platform's few in-memory caches: `max`, `ttl`, get, set and delete on a Map (1 KB).
    'lru-cache': join(BUNDLING_DIR, 'lru-cache-map.ts'),
    // The MCP server package (v2) carries its own Ajv inside its dist, reached through its Node shims (`_shims`, about
    // 140 KB): the bundles take its Cloudflare Workers validator on @cfworker/json-schema instead (mcp-server-shims.ts).
    '@modelcontextprotocol/server/_shims': join(BUNDLING_DIR, 'mcp-server-shims.ts'),
    // That validator from the same copy of the package as the server the lambdas import, not the copy the shims' own
    // folder would find.
    '@modelcontextprotocol/server/validators/cf-worker': join(MCP_SERVER_DIST, 'validators/cfWorker.mjs'),
  },
  // Some CommonJS dependencies call require() for Node built-ins; an ES module has no require of its own.
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
} as const;

/** The offline model of lambdas/src/infra/model, as resolve-model.ts imports it (by package path, so it can be aliased). */
const OFFLINE_MODEL = '@service/lambdas/src/infra/model/offline/offline-model';

/**
 * The aliases that leave out the model providers a MODEL setting does not select (bundling/model-provider-not-deployed.ts):
 * the stack bundles each model-using function for the MODEL it deploys it with (`bedrock:…`, `openai:…`; unset or
 * `offline` needs neither hosted provider), and a hosted one leaves out the built-in offline model too (about 25 KB of
 * phrases, rules and schema filling). The trade: changing MODEL to another provider, offline included, takes a deploy,
 * not just an environment edit.
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
 * The esbuild options of a Lambda bundle as the stack builds it (NodejsFunction passes the same settings on the
 * command line): the bench and the stand-in tests bundle with these, plus their entry and output file.
 */
export const lambdaBuildOptions = (aliases: Record<string, string> = {}) => ({
  bundle: true,
  platform: 'node' as const,
  format: 'esm' as const,
  target: LAMBDA_BUNDLING.target,
  mainFields: [...LAMBDA_BUNDLING.mainFields],
  minify: LAMBDA_BUNDLING.minify,
  legalComments: LAMBDA_BUNDLING.legalComments,
  external: [...LAMBDA_BUNDLING.external],
  alias: { ...LAMBDA_BUNDLING.alias, ...aliases },
  banner: { js: LAMBDA_BUNDLING.banner },
  logLevel: 'silent' as const,
});

/** The most a Lambda bundle may weigh (issue 10); cdk/test/platform-stack.test.ts checks every deployed bundle. */
export const BUNDLE_BUDGET_BYTES = 500 * 1024;

const KB = 1024;

/**
 * Bundles still over the budget, each with what weighs and a ceiling it may not grow past; every other function
 * (the API, the auth and conversations APIs, the MCP access point, the skill callbacks, the webhook deliverer, the
 * sweeper, the widget functions and the built-in skills) is held to BUNDLE_BUDGET_BYTES. The two that run the model
 * carry the AI SDK. Their sizes after the stand-ins above: runner 527 KB and chat 577 KB for MODEL=bedrock:… (as in
 * AWS; 810 and 860 KB before the Anthropic internals, provider-utils, zod, offline model, lru-cache and shared
 * `sideEffects` cuts), 505 and 555 KB for openai:…, 479 and 530 KB offline.
 * What weighs (the runner's metafile, Bedrock): `ai` 161 KB with its provider-utils and provider (the chat's
 * streaming, 208 KB); zod 108 KB (core and classic schemas, util, and the JSON Schema converters `ai` uses for tool
 * schemas); the MCP SDK 69 KB (the client for skills, with its OAuth client code); Bedrock 50 KB with aws4fetch 6 KB
 * and the Anthropic model table 2 KB; @cfworker/json-schema 22 KB (the MCP client's output-schema validation);
 * Powertools logger 20 KB; jose 12 KB (turn tokens); our own code and @service/shared about 48 KB. Without any
 * provider the chat would still weigh about 505 KB: `ai`'s streaming, zod and the official MCP client alone pass the
 * budget, so it holds only by replacing the AI SDK or the MCP SDK, which the platform keeps (README, Benchmarks).
 * Taking one off this list is the way to record progress.
 */
const OVER_BUDGET: Record<string, { ceilingBytes: number; why: string }> = {
  Runner: { ceilingBytes: 537 * KB, why: 'the AI SDK with the Bedrock provider, zod and the MCP client (see above)' },
  Chat: { ceilingBytes: 587 * KB, why: 'the AI SDK and its provider, as the runner, with streaming, and the MCP client for visitor skills' },
};

/** The most the bundle of a function (by construct id) may weigh. */
export const bundleBudgetBytes = (id: string): number => OVER_BUDGET[id]?.ceilingBytes ?? BUNDLE_BUDGET_BYTES;
