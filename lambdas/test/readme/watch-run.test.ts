import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { command } from '../support/runs';

/** The "Watch a run" client of docs/rest-api.md, run as written with Node against a run of a fresh platform. */
const ROOT = resolve(import.meta.dirname, '../../..');
const REST_API_DOC = readFileSync(join(ROOT, 'docs/rest-api.md'), 'utf8');
const client = /^```js watch-run\n([\s\S]*?)^```$/m.exec(REST_API_DOC)?.[1];
// Beside the repository's node_modules, so that its `import 'eventsource-parser'` resolves as in a project of one's own.
const dir = mkdtempSync(join(ROOT, 'node_modules', '.watch-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = usePlatform({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });

it('prints every event of a run, in order, ending with the finished run', async () => {
  expect(client, 'docs/rest-api.md has no ```js watch-run block').toBeDefined();
  expect(client!.trim().split('\n').length).toBeLessThanOrEqual(10);
  const file = join(dir, 'watch-run.mjs');
  writeFileSync(file, client!);
  const runId = await command(ctx.api, {
    agent_id: ctx.agentId,
    instruction: 'Please add Kim Watch (kim.watch@example.com) to my contacts.',
    autonomy: 'full',
  });
  const { stdout } = await promisify(execFile)(process.execPath, [file, runId], {
    env: { PATH: process.env.PATH!, BASE_URL: ctx.platform.apiBaseUrl, API_KEY: ctx.key },
    timeout: 30_000,
  });
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => line.split(' ', 2));
  const steps = lines.filter(([, name]) => name !== 'text_delta');
  expect(steps.map(([id]) => Number(id))).toEqual(steps.map((_, index) => index));
  expect(lines.map(([, name]) => name)).toEqual(expect.arrayContaining(['status', 'text_delta', 'text', 'tool_call', 'run']));
  expect(lines.at(-1)![1]).toBe('run');
  expect(stdout).toContain('contacts.create');
});
