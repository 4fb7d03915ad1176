// The model layer of the agent runtime: which language model to use, and the built-in offline model.
export { resolveModel, parseModelSetting, ModelSettingError, ACCEPTED_MODEL_FORMS } from './resolve-model';
export type { ModelSetting, ModelEnv } from './resolve-model';
export { OfflineLanguageModel, createOfflineModel, OFFLINE_PROVIDER, OFFLINE_MODEL_ID } from './offline/offline-model';
export { countTokens, CHARACTERS_PER_TOKEN } from './offline/usage';
export { detectLanguage } from './offline/language';
export type { Language } from './offline/language';
export { TOPICS } from './offline/widget-rules';
export type { Topic, UiAction } from './offline/widget-rules';
