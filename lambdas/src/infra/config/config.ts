import { z } from 'zod';

/** Settings shared by every handler, read once from the environment (CDK sets them in AWS; the local platform sets them itself). */
const ConfigSchema = z.object({
  TABLE_PREFIX: z.string().default('service-'),
  DYNAMODB_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  RUNS_QUEUE_URL: z.string().optional(),
  WEBHOOK_QUEUE_URL: z.string().optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(100 * 1024),
  WEBHOOK_ALLOW_LOCAL: z.enum(['0', '1', 'true', 'false', '']).default('0'),
  MODEL: z.string().default('offline'),
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().default(1),
});

export type PlatformConfig = {
  tablePrefix: string;
  dynamoEndpoint?: string;
  region: string;
  queueUrls: { runs?: string; webhooks?: string };
  rateLimitPerMinute: number;
  maxBodyBytes: number;
  /** Local tests only: allow http:// and loopback webhook targets. */
  webhookAllowLocal: boolean;
  /** Multiplies webhook retry delays (0.001 turns 2 min into 120 ms). */
  webhookRetryScale: number;
  /** Which language model: offline, bedrock:<id> or openai:<base url>#<model>. */
  model: string;
};

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const parsed = ConfigSchema.parse(env);
  return {
    tablePrefix: parsed.TABLE_PREFIX,
    ...(parsed.DYNAMODB_ENDPOINT ? { dynamoEndpoint: parsed.DYNAMODB_ENDPOINT } : {}),
    region: parsed.AWS_REGION,
    queueUrls: { runs: parsed.RUNS_QUEUE_URL, webhooks: parsed.WEBHOOK_QUEUE_URL },
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE,
    maxBodyBytes: parsed.MAX_BODY_BYTES,
    webhookAllowLocal: parsed.WEBHOOK_ALLOW_LOCAL === '1' || parsed.WEBHOOK_ALLOW_LOCAL === 'true',
    webhookRetryScale: parsed.WEBHOOK_RETRY_SCALE,
    model: parsed.MODEL,
  };
}
