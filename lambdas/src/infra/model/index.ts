// The model layer of the agent runtime: which language model to use (the offline one is `@service/offline-model`).
export { resolveModel, parseModelSetting, ModelSettingError, ACCEPTED_MODEL_FORMS } from './resolve-model';
export type { ModelSetting, ModelEnv } from './resolve-model';
