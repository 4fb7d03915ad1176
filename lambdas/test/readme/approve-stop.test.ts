import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { runDocumentedScript, type PrintedEnvelope } from '../support/bash';
import { newDemoKey, startTestPlatform } from '../support/platform';

/**
 * The REST API page's "Ask before acting, and stop" script, run as written with bash against a fresh platform started
 * the way "Try it" says. Every step must show what it promises.
 */
const PAGE = readFileSync(resolve(import.meta.dirname, '../../../docs/rest-api.md'), 'utf8');
const KEY = newDemoKey();

function script(): string {
  const block = /^```sh approve-stop\n([\s\S]*?)^```$/m.exec(PAGE);
  expect(block, 'docs/rest-api.md has no ```sh approve-stop block').not.toBeNull();
  return block![1]!;
}

let platform: RunningPlatform;
let result: Awaited<ReturnType<typeof runDocumentedScript>>;
let answers: PrintedEnvelope[];

beforeAll(async () => {
  platform = await startTestPlatform({ env: { SERVICE_DEMO_API_KEY: KEY, RATE_LIMIT_PER_MINUTE: '100000' } });
  result = await runDocumentedScript(script(), { KEY, BASE: platform.apiBaseUrl });
  answers = result.answers;
}, 120_000);
afterAll(async () => {
  await platform.stop();
});

it('runs top to bottom without an error, every answer a success', () => {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(answers).toHaveLength(5);
  for (const answer of answers) expect(answer, JSON.stringify(answer)).toMatchObject({ status: true });
});

it('lists the waiting run with its action, approves it, and the contact is added once', () => {
  const [waiting, approved, contacts] = answers;
  const runs = waiting!.data.runs as { run_id: string; pending_action: { capability: string; arguments: Record<string, unknown> } }[];
  expect(runs).toHaveLength(1);
  expect(runs[0]!.pending_action).toMatchObject({ capability: 'contacts.create', arguments: expect.objectContaining({ name: 'Grace Hopper' }) });
  expect(approved!.data).toMatchObject({ run_id: runs[0]!.run_id, status: 'queued' });
  const names = (contacts!.data.contacts as { name: string }[]).map((contact) => contact.name);
  expect(names.filter((name) => name === 'Grace Hopper')).toHaveLength(1);
  expect(names).not.toContain('Alan Turing');
});

it('rejects the second run and stops the third while it waits', () => {
  const [, , , rejected, cancelled] = answers;
  expect(rejected!.data.status).toBe('queued');
  expect(cancelled!.data).toMatchObject({ status: 'cancelled', cancelled_by: 'api_key' });
});
