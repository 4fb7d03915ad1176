import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { newDemoKey, startTestPlatform } from '../support/platform';
import { runDocumentedScript, type PrintedEnvelope } from '../support/bash';

/** docs/knowledge.md's REST script, run as written with bash against a fresh platform. */
const DOC = readFileSync(resolve(import.meta.dirname, '../../../docs/knowledge.md'), 'utf8');
const KEY = newDemoKey();

let platform: RunningPlatform;
let result: Awaited<ReturnType<typeof runDocumentedScript>>;
let answers: PrintedEnvelope[];

beforeAll(async () => {
  const blocks = [...DOC.matchAll(/^```sh knowledge\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  expect(blocks.length).toBe(1);
  platform = await startTestPlatform({ env: { SERVICE_DEMO_API_KEY: KEY } });
  result = await runDocumentedScript(blocks[0]!, { KEY, BASE: platform.apiBaseUrl });
  answers = result.answers;
}, 120_000);
afterAll(async () => {
  await platform.stop();
});

it('runs top to bottom, every answer a success', () => {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(answers).toHaveLength(7);
  for (const answer of answers) expect(answer, JSON.stringify(answer)).toMatchObject({ status: true });
});

it('finds the Partner price in the uploaded file, first, with its section', () => {
  const [best] = answers.find((answer) => Array.isArray(answer.data.results))!.data.results as { name: string; title: string; text: string }[];
  expect(best).toMatchObject({ name: 'pricing.md', title: 'Pricing' });
  expect(best!.text).toContain('99 euros');
});

it('lists the file and the answer sources, then deletes the file source', () => {
  const sources = answers.find((answer) => Array.isArray(answer.data.sources))!.data.sources as { type: string; documents: number }[];
  expect(sources).toEqual(
    expect.arrayContaining([expect.objectContaining({ type: 'files', documents: 1 }), expect.objectContaining({ type: 'answers', documents: 1 })]),
  );
  expect(answers.at(-1)!.data).toMatchObject({ deleted: true });
});
