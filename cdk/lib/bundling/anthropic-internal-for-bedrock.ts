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
 * is its model table copied verbatim from `src/anthropic-language-model.ts` of @ai-sdk/anthropic 4.0.68
 * (cdk/test/bundle-stand-ins.test.ts checks it against the package's for every model id the table names, so an
 * upgrade that changes the table fails that test until this copy follows). The trade: a provider-defined Anthropic
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

// Copied verbatim from @ai-sdk/anthropic 4.0.68, src/anthropic-language-model.ts (see above).
/**
 * Returns the capabilities of a Claude model that are used for defaults and feature selection.
 *
 * @see https://docs.claude.com/en/docs/about-claude/models/overview#model-comparison-table
 * @see https://platform.claude.com/docs/en/build-with-claude/structured-outputs
 */
export function getModelCapabilities(modelId: string): {
  maxOutputTokens: number;
  supportsStructuredOutput: boolean;
  supportsAdaptiveThinking: boolean;
  rejectsSamplingParameters: boolean;
  supportsXhighEffort: boolean;
  rejectsThinkingDisabledAboveHighEffort: boolean;
  /**
   * Thinking is always adaptive: `thinking.type` `disabled` and `enabled`
   * are rejected with a 400.
   */
  rejectsThinkingDisabled: boolean;
  /**
   * Forced tool use (`tool_choice` `any` or a named tool) is rejected with a 400.
   */
  rejectsForcedToolUse: boolean;
  /**
   * Supports `thinking.type` `between_tools`, the lowest thinking setting on
   * models that reject disabled thinking.
   */
  supportsBetweenToolsThinking: boolean;
  isKnownModel: boolean;
} {
  if (modelId.includes('claude-sonnet-5-5')) {
    return {
      maxOutputTokens: 128000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: true,
      rejectsSamplingParameters: true,
      supportsXhighEffort: true,
      rejectsThinkingDisabledAboveHighEffort: true,
      rejectsThinkingDisabled: true,
      rejectsForcedToolUse: true,
      supportsBetweenToolsThinking: true,
      isKnownModel: true,
    };
  } else if (modelId.includes('claude-opus-5-5')) {
    return {
      maxOutputTokens: 128000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: true,
      rejectsSamplingParameters: true,
      supportsXhighEffort: true,
      rejectsThinkingDisabledAboveHighEffort: true,
      rejectsThinkingDisabled: true,
      rejectsForcedToolUse: true,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (modelId.includes('claude-opus-5')) {
    return {
      maxOutputTokens: 128000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: true,
      rejectsSamplingParameters: true,
      supportsXhighEffort: true,
      rejectsThinkingDisabledAboveHighEffort: true,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (modelId.includes('claude-fable-5-1')) {
    return {
      maxOutputTokens: 128000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: true,
      rejectsSamplingParameters: true,
      supportsXhighEffort: true,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: true,
      rejectsForcedToolUse: true,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (modelId.includes('claude-fable-5')) {
    return {
      maxOutputTokens: 128000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: true,
      rejectsSamplingParameters: true,
      supportsXhighEffort: true,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: true,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (
    modelId.includes('claude-opus-4-8') ||
    modelId.includes('claude-opus-4-7') ||
    modelId.includes('claude-sonnet-5')
  ) {
    return {
      maxOutputTokens: 128000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: true,
      rejectsSamplingParameters: true,
      supportsXhighEffort: true,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (
    modelId.includes('claude-sonnet-4-6') ||
    modelId.includes('claude-opus-4-6')
  ) {
    return {
      maxOutputTokens: 128000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: true,
      rejectsSamplingParameters: false,
      supportsXhighEffort: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (
    modelId.includes('claude-sonnet-4-5') ||
    modelId.includes('claude-opus-4-5') ||
    modelId.includes('claude-haiku-4-5')
  ) {
    return {
      maxOutputTokens: 64000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: false,
      rejectsSamplingParameters: false,
      supportsXhighEffort: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (modelId.includes('claude-opus-4-1')) {
    return {
      maxOutputTokens: 32000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: false,
      rejectsSamplingParameters: false,
      supportsXhighEffort: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (/claude-sonnet-4(?:-|@)/.test(modelId)) {
    return {
      maxOutputTokens: 64000,
      supportsStructuredOutput: false,
      supportsAdaptiveThinking: false,
      rejectsSamplingParameters: false,
      supportsXhighEffort: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (/claude-opus-4(?:-|@)/.test(modelId)) {
    return {
      maxOutputTokens: 32000,
      supportsStructuredOutput: false,
      supportsAdaptiveThinking: false,
      rejectsSamplingParameters: false,
      supportsXhighEffort: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (modelId.includes('claude-3-haiku')) {
    return {
      maxOutputTokens: 4096,
      supportsStructuredOutput: false,
      supportsAdaptiveThinking: false,
      rejectsSamplingParameters: false,
      supportsXhighEffort: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true,
    };
  } else if (
    /claude-(?:instant(?:-|$)|v?2(?=$|[-.:])|3(?=$|[-.]))/.test(modelId)
  ) {
    return {
      maxOutputTokens: 4096,
      supportsStructuredOutput: false,
      supportsAdaptiveThinking: false,
      rejectsSamplingParameters: false,
      supportsXhighEffort: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: false,
    };
  } else if (modelId.includes('claude-')) {
    // Known and legacy Claude families are handled above, so any remaining
    // Claude ID is assumed to be newer than the known list. Keep it unknown so
    // callers still receive the maxOutputTokens compatibility warning.
    return {
      maxOutputTokens: 128000,
      supportsStructuredOutput: true,
      supportsAdaptiveThinking: true,
      rejectsSamplingParameters: true,
      supportsXhighEffort: true,
      rejectsThinkingDisabledAboveHighEffort: true,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: false,
    };
  } else {
    // Non-Claude models (e.g. served through Anthropic-compatible APIs)
    // keep conservative defaults.
    return {
      maxOutputTokens: 4096,
      supportsStructuredOutput: false,
      supportsAdaptiveThinking: false,
      rejectsSamplingParameters: false,
      supportsXhighEffort: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: false,
    };
  }
}
