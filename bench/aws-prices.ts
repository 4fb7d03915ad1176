/**
 * AWS list prices (on-demand, no free tier, no Savings Plans) for US East (N. Virginia), us-east-1, in US dollars, taken
 * on 2026-11-25 from the published pricing pages named beside each, cross-read with secondary summaries of them:
 * - "Amazon DynamoDB pricing for on-demand capacity" (aws.amazon.com/dynamodb/pricing/on-demand/): the prices after the
 *   50% cut of on-demand throughput of 1 November 2024, Standard table class.
 * - "Amazon SQS pricing" (aws.amazon.com/sqs/pricing/): standard queues, first 100 billion requests a month; each 64 KB
 *   chunk of a request's payload is billed as one request.
 * - "AWS Lambda pricing" (aws.amazon.com/lambda/pricing/): Arm (the stack's functions are arm64, cdk/lib/node-function.ts),
 *   first 7.5 billion GB-seconds a month; duration is billed per 1 ms.
 * - "Amazon API Gateway pricing" (aws.amazon.com/api-gateway/pricing/): HTTP APIs, first 300 million requests a month,
 *   metered in 512 KB increments.
 * - "Amazon S3 pricing" (aws.amazon.com/s3/pricing/): S3 Standard, first 50 TB a month; GET (and HEAD) requests, and
 *   PUT, COPY, POST, LIST requests, per 1,000; DELETE is free.
 * - Lambda x86 (the functions that open the knowledge index run on x86_64, cdk/lib/lancedb-layer.ts), first 6 billion
 *   GB-seconds a month.
 * - "Amazon SES pricing" (aws.amazon.com/ses/pricing/): receiving, per 1,000 mails and per 1,000 incoming mail chunks
 *   of 256 KB (a mail is billed as its whole chunks).
 * - "Amazon SNS pricing" (aws.amazon.com/sns/pricing/): standard topics, per million publishes (SES receiving's
 *   notification; the delivery to an SQS queue is free).
 * Lambda Function URLs (the built-in skills, the chat, MCP) cost nothing beyond their function's invocations.
 */
export const AWS_PRICES = {
  region: 'us-east-1',
  takenOn: '2026-11-25',
  dynamodb: { perMillionWriteRequestUnits: 0.625, perMillionReadRequestUnits: 0.125 },
  sqs: { perMillionStandardRequests: 0.4, requestChunkBytes: 64 * 1024 },
  lambda: { architecture: 'arm64', perGbSecond: 0.0000133334, perMillionRequests: 0.2 },
  apiGateway: { perMillionHttpApiRequests: 1.0, requestChunkBytes: 512 * 1024 },
  s3: { perGbMonthStandard: 0.023, perThousandGet: 0.0004, perThousandPutListPost: 0.005 },
  lambdaX86: { perGbSecond: 0.0000166667, perMillionRequests: 0.2 },
  sesReceiving: { perThousandMails: 0.1, perThousandChunks: 0.09, chunkBytes: 256 * 1024 },
  sns: { perMillionPublishes: 0.5 },
} as const;
