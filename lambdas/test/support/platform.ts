import { randomBase62 } from '@service/shared';
import { afterAll, beforeAll } from 'vitest';
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

/** Starts an in-memory platform for the test file, with a known demo key. */
export function usePlatform(options: PlatformOptions = {}) {
  const key = newDemoKey();
  const context = {} as { platform: RunningPlatform; api: ApiCall; key: string; agentId: string };
  beforeAll(async () => {
    context.platform = await startPlatform({ port: 0, ...options, env: { SERVICE_DEMO_API_KEY: key, ...options.env } });
    context.api = apiClient(context.platform.apiBaseUrl, key);
    context.key = key;
    context.agentId = context.platform.demo.agentId;
  });
  afterAll(async () => {
    await context.platform?.stop();
  });
  return context;
}
