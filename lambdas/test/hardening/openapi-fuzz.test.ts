import { buildOpenApiDocument } from '@service/shared/openapi';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuthApiHandler } from '../../src/surfaces/rest-api/auth-api';
import { createConversationsApiHandler } from '../../src/surfaces/rest-api/conversations-api';
import { createApiHandler } from '../../src/surfaces/rest-api/handler';
import { apiEvent, invoke } from '../support/faults';
import { orphanRunMessages } from '../support/orphans';
import { usePlatform } from '../support/platform';
import { arbitraryOf, hostile, type Hints, type JsonSchema } from '../support/schema-arbitrary';

interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
}

const document = buildOpenApiDocument('http://localhost/en/api/v1') as unknown as {
  paths: Record<string, Partial<Record<'get' | 'post', Operation>>>;
  components: { schemas: Record<string, JsonSchema> };
};
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  (Object.entries(methods) as ['get' | 'post', Operation][]).map(([method, operation]) => ({ path: path.replace(/^\/|\/$/g, ''), method, operation })),
);
const RUNS_PER_ENDPOINT = 24;

const queryString = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

describe('every endpoint of the OpenAPI document, fuzzed from its schemas and hostile mutations of them', () => {
  const ctx = usePlatform({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  beforeAll(async () => {
    // Runs stay queued: the check is on what the API writes, and the runner would only add load.
    await ctx.platform.queue.stop();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  // The files after this one in the same worker (the tier runs unisolated) log as usual.
  afterAll(() => vi.restoreAllMocks());

  it.each(operations)('$method $path answers no 5xx', async ({ path, method, operation }) => {
    const hints: Hints = { components: document.components.schemas, uuids: [ctx.agentId] };
    // The function that serves the path, as the route table sends it (auth/* and conversations/* have their own).
    const handler = (path.startsWith('auth/') ? createAuthApiHandler : path.startsWith('conversations/') ? createConversationsApiHandler : createApiHandler)(
      ctx.platform.deps,
    );
    const querySchema: JsonSchema = {
      type: 'object',
      properties: Object.fromEntries((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
      required: (operation.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name),
    };
    const bodySchema = operation.requestBody?.content['application/json'].schema;
    const request = fc.record({
      query: hostile(arbitraryOf(querySchema, hints)),
      body: bodySchema ? hostile(arbitraryOf(bodySchema, hints)) : fc.constant(undefined),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ query, body }) => {
        const params = typeof query === 'object' && query !== null && !Array.isArray(query) ? query : {};
        const event = apiEvent(method.toUpperCase(), path, {
          ...(body === undefined ? {} : { body }),
          query: Object.fromEntries(Object.entries(params).map(([name, value]) => [name, queryString(value)])),
          headers: { 'x-service-api-key': ctx.key },
        });
        const answer = await invoke(handler, event);
        expect(answer.statusCode, `${answer.body?.slice(0, 300)}`).toBeLessThan(500);
      }),
      { seed: 20_261_122, numRuns: RUNS_PER_ENDPOINT, endOnFailure: true },
    );
  });

  it('leaves no queue message without its run', async () => {
    expect(await orphanRunMessages(ctx.platform.deps)).toEqual([]);
  });
});
