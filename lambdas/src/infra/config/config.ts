import { QUEUE_URL_ENV } from '@service/shared';
import * as z from 'zod';

/** Settings shared by every handler, read once from the environment (CDK sets them in AWS; the local platform sets them itself). */
const ConfigSchema = z.object({
  TABLE_PREFIX: z.string().default('service-'),
  DYNAMODB_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  [QUEUE_URL_ENV.runs]: z.string().optional(),
  [QUEUE_URL_ENV.webhooks]: z.string().optional(),
  [QUEUE_URL_ENV.knowledge]: z.string().optional(),
  [QUEUE_URL_ENV.evals]: z.string().optional(),
  [QUEUE_URL_ENV.mail]: z.string().optional(),
  MAIL_BLOB_URI: z.string().optional(),
  MAIL_BLOCKED_SENDERS: z.string().default(''),
  MAIL_AUTO_REPLIES_PER_HOUR: z.coerce.number().int().min(0).default(5),
  KNOWLEDGE_INDEX_URI: z.string().optional(),
  KNOWLEDGE_BLOB_URI: z.string().optional(),
  AWS_ENDPOINT_URL_S3: z.url().optional(),
  EMBEDDING_MODEL: z.string().default('off'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * 1024),
  WEBHOOK_ALLOW_LOCAL: z.enum(['0', '1', 'true', 'false', '']).default('0'),
  MODEL: z.string().default('offline'),
  MODEL_PRICE: z
    .string()
    .regex(/^\d+(\.\d+)?\/\d+(\.\d+)?$/, { error: 'MODEL_PRICE is "<input>/<output>": US dollars per million tokens, e.g. 3/15' })
    .default('0/0'),
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().default(1),
  MCP_RESOURCE_URL: z.url().optional(),
  MCP_ALLOWED_ORIGINS: z.string().default(''),
  PUBLIC_HOSTS: z.string().default(''),
  CLIENT_METADATA_ALLOW_LOCAL: z.enum(['0', '1', 'true', 'false', '']).default('0'),
  CLIENT_METADATA_CA: z.string().optional(),
  MAIL_FROM: z.string().default('Service <no-reply@service.local>'),
  AGENT_MAIL_DOMAIN: z.hostname().default('agents.service.local'),
  DASHBOARD_ORIGIN: z.url().optional(),
});

export type PlatformConfig = {
  tablePrefix: string;
  dynamoEndpoint?: string;
  region: string;
  queueUrls: { runs?: string; webhooks?: string; knowledge?: string; evals?: string; mail?: string };
  /** Where inbound mail's raw MIME and attachments are kept: a directory locally, `s3://bucket/prefix` in AWS (the SES receipt rule's S3 action). */
  mailBlobUri?: string;
  /** Senders whose mail is kept apart as spam and never answered (MAIL_BLOCKED_SENDERS: addresses or `@domain`, comma-separated; SES's spam verdict in AWS). */
  mailBlockedSenders: string[];
  /** Automatic replies one sender may get from one agent an hour (RFC 3834 loop protection); more are not answered. */
  mailAutoRepliesPerHour: number;
  /**
   * Where the knowledge index lives: a directory (locally under the data dir) or an `s3://bucket/prefix` URI in AWS;
   * one LanceDB table per workspace inside it. Unset: knowledge is unavailable in this function.
   */
  knowledgeIndexUri?: string;
  /** Where uploaded files and extracted texts are kept: a directory, or `s3://bucket/prefix` in AWS. */
  knowledgeBlobUri?: string;
  /**
   * Another S3 endpoint than AWS's (AWS_ENDPOINT_URL_S3, the SDK's own setting): the bundled platform's emulated S3
   * on loopback. The index and the files then address buckets by path (`endpoint/bucket/key`).
   */
  s3Endpoint?: string;
  /** Embeddings fused with full-text search: off (default), openai:<base url>#<model> or bedrock:<model id>. */
  embeddingModel: string;
  rateLimitPerMinute: number;
  maxBodyBytes: number;
  /** Local tests only: allow http:// and loopback webhook targets. */
  webhookAllowLocal: boolean;
  /** Multiplies webhook retry delays (0.001 turns 2 min into 120 ms). */
  webhookRetryScale: number;
  /** Which language model: offline, bedrock:<id> or openai:<base url>#<model>. */
  model: string;
  /** What the model's tokens cost, US dollars per million (MODEL_PRICE `<input>/<output>`; the offline model's are free). */
  modelPrice: { inputPerMillionUsd: number; outputPerMillionUsd: number };
  /** The canonical URL of the MCP server (RFC 8707 resource), e.g. on a custom domain; unset = the request's own origin + /mcp. */
  mcpResourceUrl?: string;
  /** Browser origins besides the server's own allowed to call /mcp (comma-separated MCP_ALLOWED_ORIGINS). */
  mcpAllowedOrigins: string[];
  /**
   * Host names (exact, or `*.suffix` for one label) the CDN in front may report as the viewer's (VIEWER_HOST_HEADER),
   * comma-separated PUBLIC_HOSTS; none (locally): the request's own Host is the public one.
   */
  publicHosts: string[];
  /**
   * Local tests only: client metadata documents may be fetched from loopback https servers, trusting the extra CA
   * (PEM) in CLIENT_METADATA_CA. Off in AWS: documents at private addresses are refused.
   */
  clientMetadataAllowLocal: boolean;
  clientMetadataCa?: string;
  /** The sender of the platform's own mail (a verified SES identity in AWS). */
  mailFrom: string;
  /** The domain of the agents' own addresses (`<name>.<id>@domain`, given at hire): a verified SES domain in AWS. */
  agentMailDomain: string;
  /** The dashboard's origin in AWS (sign-in links, passkeys' relying party); locally the request's own origin serves. */
  dashboardOrigin?: string;
};

const modelPriceOf = (value: string) => {
  const [input, output] = value.split('/').map(Number) as [number, number];
  return { inputPerMillionUsd: input, outputPerMillionUsd: output };
};

const commaList = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const parsed = ConfigSchema.parse(env);
  return {
    tablePrefix: parsed.TABLE_PREFIX,
    ...(parsed.DYNAMODB_ENDPOINT ? { dynamoEndpoint: parsed.DYNAMODB_ENDPOINT } : {}),
    region: parsed.AWS_REGION,
    queueUrls: {
      runs: parsed[QUEUE_URL_ENV.runs],
      webhooks: parsed[QUEUE_URL_ENV.webhooks],
      knowledge: parsed[QUEUE_URL_ENV.knowledge],
      evals: parsed[QUEUE_URL_ENV.evals],
      mail: parsed[QUEUE_URL_ENV.mail],
    },
    ...(parsed.MAIL_BLOB_URI ? { mailBlobUri: parsed.MAIL_BLOB_URI } : {}),
    mailBlockedSenders: commaList(parsed.MAIL_BLOCKED_SENDERS.toLowerCase()),
    mailAutoRepliesPerHour: parsed.MAIL_AUTO_REPLIES_PER_HOUR,
    ...(parsed.KNOWLEDGE_INDEX_URI ? { knowledgeIndexUri: parsed.KNOWLEDGE_INDEX_URI } : {}),
    ...(parsed.KNOWLEDGE_BLOB_URI ? { knowledgeBlobUri: parsed.KNOWLEDGE_BLOB_URI } : {}),
    ...(parsed.AWS_ENDPOINT_URL_S3 ? { s3Endpoint: parsed.AWS_ENDPOINT_URL_S3 } : {}),
    embeddingModel: parsed.EMBEDDING_MODEL,
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE,
    maxBodyBytes: parsed.MAX_BODY_BYTES,
    webhookAllowLocal: parsed.WEBHOOK_ALLOW_LOCAL === '1' || parsed.WEBHOOK_ALLOW_LOCAL === 'true',
    webhookRetryScale: parsed.WEBHOOK_RETRY_SCALE,
    model: parsed.MODEL,
    modelPrice: modelPriceOf(parsed.MODEL_PRICE),
    ...(parsed.MCP_RESOURCE_URL ? { mcpResourceUrl: parsed.MCP_RESOURCE_URL } : {}),
    mcpAllowedOrigins: commaList(parsed.MCP_ALLOWED_ORIGINS),
    publicHosts: commaList(parsed.PUBLIC_HOSTS.toLowerCase()),
    clientMetadataAllowLocal: parsed.CLIENT_METADATA_ALLOW_LOCAL === '1' || parsed.CLIENT_METADATA_ALLOW_LOCAL === 'true',
    ...(parsed.CLIENT_METADATA_CA ? { clientMetadataCa: parsed.CLIENT_METADATA_CA } : {}),
    mailFrom: parsed.MAIL_FROM,
    agentMailDomain: parsed.AGENT_MAIL_DOMAIN,
    ...(parsed.DASHBOARD_ORIGIN ? { dashboardOrigin: parsed.DASHBOARD_ORIGIN.replace(/\/$/, '') } : {}),
  };
}
