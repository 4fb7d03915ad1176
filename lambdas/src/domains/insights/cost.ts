import type { PlatformConfig } from '../../infra/config/config';
import type { DayMeasures } from './measures';

/**
 * The platform's own AWS cost, an estimate from the benchmarks' measured bill (docs/benchmarks-latest.md, "AWS bill",
 * us-east-1 list prices of bench/aws-prices.ts): a run is a command with one tool call and one webhook delivery
 * ($0.02558 a thousand); a conversation is the handed-off conversation of 10 messages less its held live streams
 * ($0.200 a thousand: its requests, Chat and ConversationsApi durations, DynamoDB). Update them with the bench.
 */
export const PLATFORM_COST_ESTIMATE = { perRunUsd: 0.02558 / 1000, perConversationUsd: 0.2 / 1000 } as const;

export interface Pricing {
  model: string;
  input_per_million_usd: number;
  output_per_million_usd: number;
  platform_per_conversation_usd: number;
  platform_per_run_usd: number;
}

export const pricingOf = (config: Pick<PlatformConfig, 'model' | 'modelPrice'>): Pricing => ({
  model: config.model,
  input_per_million_usd: config.modelPrice.inputPerMillionUsd,
  output_per_million_usd: config.modelPrice.outputPerMillionUsd,
  platform_per_conversation_usd: PLATFORM_COST_ESTIMATE.perConversationUsd,
  platform_per_run_usd: PLATFORM_COST_ESTIMATE.perRunUsd,
});

const tokenCost = (pricing: Pricing, input: number, output: number) =>
  (input * pricing.input_per_million_usd + output * pricing.output_per_million_usd) / 1_000_000;

/** A day's cost: tokens at the model's price, the platform's estimate, and both per conversation and per run. */
export function costOf(pricing: Pricing, day: DayMeasures) {
  const conversationModel = tokenCost(pricing, day.conversationTokens.input, day.conversationTokens.output);
  const { counts } = day;
  const runModel = tokenCost(pricing, counts.input_tokens - day.conversationTokens.input, counts.output_tokens - day.conversationTokens.output);
  const conversationPlatform = counts.conversations * pricing.platform_per_conversation_usd;
  const runPlatform = counts.runs * pricing.platform_per_run_usd;
  return {
    model_cost_usd: conversationModel + runModel,
    platform_cost_usd: conversationPlatform + runPlatform,
    cost_per_conversation_usd: counts.conversations ? (conversationModel + conversationPlatform) / counts.conversations : null,
    cost_per_run_usd: counts.runs ? (runModel + runPlatform) / counts.runs : null,
  };
}
