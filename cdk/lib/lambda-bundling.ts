import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUNDLING_DIR = join(dirname(fileURLToPath(import.meta.url)), 'bundling');

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
  // The MCP SDK constructs an Ajv validator (with ajv-formats, about 130 KB) for tool output schemas and elicitation
  // forms; in a bundle the same Ajv API runs on @cfworker/json-schema instead (bundling/ajv-on-cfworker.ts).
  // The MCP server package (v2) carries its own Ajv inside its dist, reached through its Node shims (`_shims`, about
  // 140 KB): the bundles take its Cloudflare Workers validator on @cfworker/json-schema instead (bundling/mcp-server-shims.ts).
  alias: {
    ajv: join(BUNDLING_DIR, 'ajv-on-cfworker.ts'),
    'ajv-formats': join(BUNDLING_DIR, 'ajv-formats-noop.ts'),
    '@modelcontextprotocol/server/_shims': join(BUNDLING_DIR, 'mcp-server-shims.ts'),
  },
  // Some CommonJS dependencies call require() for Node built-ins; an ES module has no require of its own.
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
} as const;

/** The most a Lambda bundle may weigh (issue 10); cdk/test/platform-stack.test.ts checks every deployed bundle. */
export const BUNDLE_BUDGET_BYTES = 500 * 1024;

const KB = 1024;

/**
 * Bundles still over the budget, each with what weighs and a ceiling it may not grow past; every other function
 * (the API, the auth and conversations APIs, the MCP access point, the skill callbacks, the webhook deliverer, the
 * sweeper, the widget functions and the built-in skills)
 * is held to BUNDLE_BUDGET_BYTES. The two that run the model carry the AI SDK: `ai` (150 KB) with its gateway
 * provider (120 KB, imported by `ai` itself), Bedrock (55 KB) with the Anthropic provider it builds on (115 KB), the
 * OpenAI-compatible provider (78 KB), and zod/v4 imported as `{ z }` by those providers, which keeps all of zod's
 * locales (260 KB of the 450 KB zod share). Taking one off this list is the way to record progress.
 */
const OVER_BUDGET: Record<string, { ceilingBytes: number; why: string }> = {
  Runner: { ceilingBytes: 1300 * KB, why: 'the AI SDK with its Bedrock, gateway and OpenAI-compatible providers and all of zod (see above)' },
  Chat: { ceilingBytes: 1350 * KB, why: 'the AI SDK and its providers, as the runner, and the MCP client for visitor skills' },
};

/** The most the bundle of a function (by construct id) may weigh. */
export const bundleBudgetBytes = (id: string): number => OVER_BUDGET[id]?.ceilingBytes ?? BUNDLE_BUDGET_BYTES;
