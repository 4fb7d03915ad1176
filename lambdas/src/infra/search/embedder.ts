import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { embedMany } from 'ai';
import { parseModelSetting } from '../model/resolve-model';

/** Turns passages and questions into vectors, for the vector ranking fused with full-text search. */
export interface Embedder {
  embed(texts: string[]): Promise<number[][]>;
  /** The length of its vectors (asked of the model once). */
  dimensions(): Promise<number>;
}

function embeddingModel(setting: string, env: NodeJS.ProcessEnv): EmbeddingModelV4 {
  const parsed = parseModelSetting(setting);
  switch (parsed.kind) {
    case 'openai':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: parsed.baseURL,
        ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
      }).embeddingModel(parsed.model);
    case 'bedrock':
      return createAmazonBedrock({ region: env.AWS_REGION ?? 'us-east-1' }).embeddingModel(parsed.modelId);
    case 'offline':
      throw new Error('EMBEDDING_MODEL: the offline model has no embeddings; say off');
  }
}

/**
 * The embedder an EMBEDDING_MODEL setting names (`openai:<base url>#<model>`: an OpenAI-compatible `/embeddings`;
 * `bedrock:<model id>`), or undefined for `off`: full-text search alone, no model needed.
 */
export function resolveEmbedder(setting: string, env: NodeJS.ProcessEnv = process.env): Embedder | undefined {
  if (setting.trim() === 'off' || setting.trim() === '') return undefined;
  const model = embeddingModel(setting, env);
  let dimensions: Promise<number> | undefined;
  const embed = async (texts: string[]) => (texts.length === 0 ? [] : (await embedMany({ model, values: texts, maxRetries: 2 })).embeddings);
  return {
    embed,
    dimensions: () => (dimensions ??= embed(['dimensions']).then(([vector]) => vector!.length)),
  };
}
