// The built-in offline model, a model provider like `@ai-sdk/amazon-bedrock` and `@ai-sdk/openai-compatible`: the
// platform's resolve-model.ts imports it by this package's name, so a Lambda bundle for a hosted MODEL leaves it out
// (cdk/lib/lambda-bundling.ts, providerAliases). See ../README.md for what it can and cannot do.
export { OfflineLanguageModel, createOfflineModel, textDeltas, OFFLINE_PROVIDER, OFFLINE_MODEL_ID } from './offline-model';
export type { OfflineModelOptions } from './offline-model';
export { countTokens, CHARACTERS_PER_TOKEN } from './usage';
export { detectLanguage } from './language';
export type { Language } from './language';
export { TOPICS } from './widget-rules';
export type { Topic, UiAction } from './widget-rules';
