import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
// A model provider like the two above: a Lambda bundle for a hosted MODEL swaps it out like the provider it does not
// deploy (cdk/lib/lambda-bundling.ts, providerAliases).
import { createOfflineModel } from '@service/offline-model';

// Which language model the agent runtime talks to, chosen by the MODEL setting (docs/configuration.md).

export type ModelSetting = { kind: 'offline' } | { kind: 'bedrock'; modelId: string } | { kind: 'openai'; baseURL: string; model: string };

/** The environment variables the model layer reads (a subset of process.env). */
export type ModelEnv = Partial<Record<string, string>>;

export const ACCEPTED_MODEL_FORMS = 'offline, bedrock:<model id> or openai:<base url>#<model>';

/** The setting with any `user:password@` of a URL masked: error messages end up in logs. */
function redactCredentials(text: string): string {
  return text.replace(/\/\/[^/\s]*@/g, '//***@');
}

export class ModelSettingError extends Error {
  constructor(setting: string, reason: string) {
    super(redactCredentials(`Invalid MODEL setting "${setting}": ${reason}. Accepted forms: ${ACCEPTED_MODEL_FORMS}.`));
    this.name = 'ModelSettingError';
  }
}

function parseBaseURL(setting: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ModelSettingError(setting, `"${text}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ModelSettingError(setting, 'the base URL must be http or https');
  // The API key travels in a header from OPENAI_API_KEY; a URL ends up in logs.
  if (url.username || url.password) throw new ModelSettingError(setting, 'the base URL must not contain credentials (use OPENAI_API_KEY)');
  return text.replace(/\/+$/, '');
}

export function parseModelSetting(setting: string): ModelSetting {
  const trimmed = setting.trim();
  if (trimmed === 'offline') return { kind: 'offline' };
  const separator = trimmed.indexOf(':');
  const scheme = separator === -1 ? trimmed : trimmed.slice(0, separator);
  const rest = trimmed.slice(separator + 1);
  if (scheme === 'bedrock' && separator !== -1) {
    if (!/^\S+$/.test(rest)) throw new ModelSettingError(setting, 'the Bedrock model id is missing or contains spaces');
    return { kind: 'bedrock', modelId: rest };
  }
  if (scheme === 'openai' && separator !== -1) {
    const hash = rest.lastIndexOf('#');
    const model = hash === -1 ? '' : rest.slice(hash + 1);
    if (!model || /\s/.test(model)) throw new ModelSettingError(setting, 'the model name after "#" is missing or contains spaces');
    return { kind: 'openai', baseURL: parseBaseURL(setting, rest.slice(0, hash)), model };
  }
  throw new ModelSettingError(setting, 'unknown model kind');
}

function bedrockModel(modelId: string, env: ModelEnv): LanguageModelV4 {
  const endpoint = env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME ?? env.AWS_ENDPOINT_URL;
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('MODEL=bedrock:… needs the AWS region: set AWS_REGION (Lambda sets it for you).');
  // Credentials: a Bedrock API key if set, else the standard AWS variables (Lambda sets them from its role).
  const bedrock = createAmazonBedrock({
    region,
    ...(endpoint ? { baseURL: endpoint } : {}),
    ...(env.AWS_BEARER_TOKEN_BEDROCK ? { apiKey: env.AWS_BEARER_TOKEN_BEDROCK } : {}),
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN }
      : {}),
  });
  return bedrock.languageModel(modelId);
}

function openAICompatibleModel(baseURL: string, model: string, env: ModelEnv): LanguageModelV4 {
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL,
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
    // Usage in streamed replies too, so metering works whichever way the runtime calls the model.
    includeUsage: true,
    // Send the JSON schema of structured output (response_format json_schema), not just "json_object".
    supportsStructuredOutputs: true,
  });
  return provider.chatModel(model);
}

/** OFFLINE_MODEL_DELTA_PAUSE_MS: the offline model's pause between streamed words (0 to 1000 ms; none when unset). */
function offlineDeltaPause(env: ModelEnv): number {
  const pause = Number(env.OFFLINE_MODEL_DELTA_PAUSE_MS ?? 0);
  if (!Number.isInteger(pause) || pause < 0 || pause > 1000)
    throw new ModelSettingError('offline', 'OFFLINE_MODEL_DELTA_PAUSE_MS must be a whole number of milliseconds, 0 to 1000');
  return pause;
}

/**
 * The language model for a MODEL setting: `offline` (default), `bedrock:<model id>` (Amazon Bedrock, region and
 * credentials from the standard AWS environment) or `openai:<base url>#<model>` (any OpenAI-compatible endpoint,
 * API key from OPENAI_API_KEY when set). Throws ModelSettingError naming the accepted forms for a bad setting.
 */
export function resolveModel(setting: string = process.env.MODEL ?? 'offline', env: ModelEnv = process.env): LanguageModelV4 {
  const parsed = parseModelSetting(setting);
  switch (parsed.kind) {
    case 'offline':
      return createOfflineModel({ deltaPauseMs: offlineDeltaPause(env) });
    case 'bedrock':
      return bedrockModel(parsed.modelId, env);
    case 'openai':
      return openAICompatibleModel(parsed.baseURL, parsed.model, env);
  }
}
