/**
 * What a Lambda bundle gets for `import ... from '@ai-sdk/anthropic/internal'` (LAMBDA_BUNDLING aliases it here).
 * @ai-sdk/amazon-bedrock imports four things from it: `getModelCapabilities` (defaults and feature checks by model
 * id) and `sanitizeJsonSchema` (the structured-output schema clean-up), which its Converse model calls on every
 * request, and `anthropicTools` / `prepareTools`, Anthropic's provider-defined tools (bash, computer use, text editor,
 * code execution, …), which it reaches only when a call passes such a tool (`bedrock.tools.…`). The platform passes
 * only its own function tools (agent tools, skill tools over MCP), never a provider-defined one.
 *
 * The package ships that module as one 110 KB file in which esbuild can drop nothing (its tool schemas are built at
 * module level), so the bundles would carry the whole Anthropic provider for two small functions. Here:
 * `sanitizeJsonSchema` is the package's own (its source file, which imports nothing else), `getModelCapabilities`
 * is its model table from `src/anthropic-language-model.ts` of @ai-sdk/anthropic 4.0.68, written as rows (the same
 * tests in the same order; cdk/test/bundle-stand-ins.test.ts checks it against the package's for every model id the
 * table names and more, so an upgrade that changes the table fails that test until these rows follow). The trade: a provider-defined Anthropic
 * tool on Bedrock fails with the reason below, in a bundle only.
 */
export { sanitizeJsonSchema } from '../../../node_modules/@ai-sdk/anthropic/src/sanitize-json-schema';

function absent(): never {
  throw new Error('Anthropic provider-defined tools (bedrock.tools.…) are not part of this Lambda bundle: give the model function tools');
}

/** The provider's `tools` (bedrock.tools): every factory fails with the reason; none is listed. */
export const anthropicTools: Record<string, () => never> = new Proxy({}, { get: (_target, key) => (typeof key === 'string' && key !== 'then' ? absent : undefined) });

/** Reached only for provider-defined tools. */
export async function prepareTools(): Promise<never> {
  return absent();
}

/** The capabilities getModelCapabilities answers, each flag by the short name the rows below use. */
const FLAGS = {
  structured: 'supportsStructuredOutput',
  adaptive: 'supportsAdaptiveThinking',
  'no-sampling': 'rejectsSamplingParameters',
  xhigh: 'supportsXhighEffort',
  'no-disabled-above-high': 'rejectsThinkingDisabledAboveHighEffort',
  'no-disabled': 'rejectsThinkingDisabled',
  'no-forced-tool': 'rejectsForcedToolUse',
  'between-tools': 'supportsBetweenToolsThinking',
  known: 'isKnownModel',
} as const;

type ModelCapabilities = { maxOutputTokens: number } & Record<(typeof FLAGS)[keyof typeof FLAGS], boolean>;

/**
 * The package's table, in its order (the first row that matches answers): the model id contains one of the strings,
 * or matches the pattern; its maxOutputTokens; the flags that are true (every other is false). Any other model id:
 * 4,096 tokens, every flag false.
 */
const ROWS: ReadonlyArray<readonly [readonly string[] | RegExp, number, string]> = [
  [['claude-sonnet-5-5'], 128_000, 'structured adaptive no-sampling xhigh no-disabled-above-high no-disabled no-forced-tool between-tools known'],
  [['claude-opus-5-5'], 128_000, 'structured adaptive no-sampling xhigh no-disabled-above-high no-disabled no-forced-tool known'],
  [['claude-opus-5'], 128_000, 'structured adaptive no-sampling xhigh no-disabled-above-high known'],
  [['claude-fable-5-1'], 128_000, 'structured adaptive no-sampling xhigh no-disabled no-forced-tool known'],
  [['claude-fable-5'], 128_000, 'structured adaptive no-sampling xhigh no-disabled known'],
  [['claude-opus-4-8', 'claude-opus-4-7', 'claude-sonnet-5'], 128_000, 'structured adaptive no-sampling xhigh known'],
  [['claude-sonnet-4-6', 'claude-opus-4-6'], 128_000, 'structured adaptive known'],
  [['claude-sonnet-4-5', 'claude-opus-4-5', 'claude-haiku-4-5'], 64_000, 'structured known'],
  [['claude-opus-4-1'], 32_000, 'structured known'],
  [/claude-sonnet-4(?:-|@)/, 64_000, 'known'],
  [/claude-opus-4(?:-|@)/, 32_000, 'known'],
  [['claude-3-haiku'], 4_096, 'known'],
  [/claude-(?:instant(?:-|$)|v?2(?=$|[-.:])|3(?=$|[-.]))/, 4_096, ''],
  [['claude-'], 128_000, 'structured adaptive no-sampling xhigh no-disabled-above-high'],
];

export function getModelCapabilities(modelId: string): ModelCapabilities {
  const row = ROWS.find(([match]) => (match instanceof RegExp ? match.test(modelId) : match.some((part) => modelId.includes(part))));
  const on = new Set(row?.[2].split(' '));
  const flags = Object.entries(FLAGS).map(([short, name]) => [name, on.has(short)]);
  return { maxOutputTokens: row?.[1] ?? 4_096, ...Object.fromEntries(flags) } as ModelCapabilities;
}
