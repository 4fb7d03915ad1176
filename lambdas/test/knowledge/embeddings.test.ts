import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { apiClient, newDemoKey, type ApiCall, startTestPlatform } from '../support/platform';
import { startLoopbackServer, type LoopbackServer } from './loopback-server';
import { createSource, deleteAllSources, search, upload } from './helpers';

/**
 * A deterministic OpenAI-compatible `/embeddings` server on loopback: each text becomes a vector of concept counts
 * (no embedding model can be had on this machine), so a question that shares no word with a passage but the same
 * concept is found by the vector ranking alone.
 */
const CONCEPTS = [
  /\b(price|prices|cost|costs|fee|fees|charge|euros?)\b/gi,
  /\b(hours|open|opening|closed|schedule)\b/gi,
  /\b(refund|refunds|money back|return)\b/gi,
];
const embed = (text: string) => [...CONCEPTS.map((concept) => (text.match(concept)?.length ?? 0) + 0.01), 0.01];

describe('knowledge search with an embedding model', () => {
  let embeddings: LoopbackServer;
  let platform: RunningPlatform;
  let api: ApiCall;
  const inputs: string[] = [];
  beforeAll(async () => {
    embeddings = await startLoopbackServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { input } = JSON.parse(body) as { input: string[] };
        inputs.push(...input);
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            object: 'list',
            model: 'concepts',
            data: input.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
      });
    });
    const key = newDemoKey();
    platform = await startTestPlatform({ env: { SERVICE_DEMO_API_KEY: key, EMBEDDING_MODEL: `openai:http://127.0.0.1:${embeddings.port}/v1#concepts` } });
    api = apiClient(platform.apiBaseUrl, key);
    await deleteAllSources(api); // the demo page speaks of prices too: the two files below are the whole content
  });
  afterAll(async () => {
    await platform?.stop();
    await embeddings?.close();
  });

  it('embeds the passages and the question, and finds by meaning what shares no word with the question', async () => {
    const source = await createSource(api, { type: 'files' });
    await upload(api, source.id, 'plans.md', '# Plans\n\nStarter costs 19 euros a month.');
    await upload(api, source.id, 'hours.md', '# Hours\n\nWe are open from nine to five.');
    expect(inputs.some((text) => text.includes('Starter costs 19 euros'))).toBe(true);
    const [best] = await search(api, 'What is the fee?');
    expect(best).toMatchObject({ name: 'plans.md' });
    expect(inputs).toContain('What is the fee?');
  });
});
