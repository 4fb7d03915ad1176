import { DeleteTableCommand, DynamoDBClient, paginateListTables } from '@aws-sdk/client-dynamodb';
import { randomBase62 } from '@service/shared';
import { afterAll, beforeAll, inject } from 'vitest';
import { startPlatform, type PlatformOptions, type RunningPlatform } from '../../src/entries/local/platform';

export const newDemoKey = () => `sk_live_${randomBase62(40)}`;

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: { status: boolean; code: number; title: string; data: T; msg: string; error?: { code: string; field?: string } };
}

/** A client for the REST API of a running platform, speaking real HTTP. */
export function apiClient(baseUrl: string, apiKey?: string) {
  return async function call<T = Record<string, unknown>>(
    path: string,
    options: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; key?: string | null; query?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const key = options.key === undefined ? apiKey : options.key;
    const url = new URL(`${baseUrl}/${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
    const hasBody = options.body !== undefined || options.rawBody !== undefined;
    const response = await fetch(url, {
      method: options.method ?? (hasBody ? 'POST' : 'GET'),
      headers: {
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        ...(key ? { 'x-service-api-key': key } : {}),
        ...options.headers,
      },
      ...(hasBody ? { body: options.rawBody ?? JSON.stringify(options.body) } : {}),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as ApiResponse<T>['body'] };
  };
}

export type ApiCall = ReturnType<typeof apiClient>;

/** This worker's store of the tier's shared dynalite (test/setup/dynamo.ts), when the tier started them. */
function sharedStore(): string | undefined {
  const endpoints = inject('dynamoEndpoints');
  if (!endpoints?.length) return undefined;
  return endpoints[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % endpoints.length];
}

/**
 * A platform for a test, on a free port unless told otherwise. In a tier with shared stores, and unless the test
 * names its own store (`dataDir`, `dynamoEndpoint` or a TABLE_PREFIX), its tables are created under a prefix of its
 * own in its worker's dynalite, every table the store's bootstrap defines, and deleted when it stops.
 */
export async function startTestPlatform(options: PlatformOptions = {}): Promise<RunningPlatform> {
  const endpoint = options.dataDir || options.dynamoEndpoint || options.env?.TABLE_PREFIX ? undefined : sharedStore();
  if (!endpoint) return startPlatform({ port: 0, ...options });
  const prefix = `t${randomBase62(10)}-`;
  const platform = await startPlatform({ port: 0, ...options, dynamoEndpoint: endpoint, env: { ...options.env, TABLE_PREFIX: prefix } });
  const stop = platform.stop.bind(platform);
  platform.stop = async () => {
    await stop();
    await dropTables(endpoint, prefix);
  };
  return platform;
}

/** Deletes the tables of one prefix (the shared store's memory stays that of the files running). */
async function dropTables(endpoint: string, prefix: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    for await (const page of paginateListTables({ client }, {})) {
      const ours = (page.TableNames ?? []).filter((name) => name.startsWith(prefix));
      await Promise.all(ours.map((TableName) => client.send(new DeleteTableCommand({ TableName }))));
    }
  } finally {
    client.destroy();
  }
}

/** Starts an in-memory platform for the test file, with a known demo key. */
export function usePlatform(options: PlatformOptions = {}) {
  const key = newDemoKey();
  const context = {} as { platform: RunningPlatform; api: ApiCall; key: string; agentId: string };
  beforeAll(async () => {
    context.platform = await startTestPlatform({ ...options, env: { SERVICE_DEMO_API_KEY: key, ...options.env } });
    context.api = apiClient(context.platform.apiBaseUrl, key);
    context.key = key;
    context.agentId = context.platform.demo.agentId;
  });
  afterAll(async () => {
    await context.platform?.stop();
  });
  return context;
}
