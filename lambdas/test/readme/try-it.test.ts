import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { newDemoKey, startTestPlatform } from '../support/platform';
import { freePort, runDocumentedScript, type PrintedEnvelope } from '../support/bash';

/**
 * The README's "Try it" script, run as written with bash against a fresh platform started the way the README says
 * (its own demo key, loopback webhooks allowed), on free ports. Every step must show what it promises.
 */
const README = readFileSync(resolve(import.meta.dirname, '../../../README.md'), 'utf8');
const KEY = newDemoKey();
const AGENT = '5eed0000-0000-4000-8000-0000000000a1';

/** The `sh try-it` blocks of the "Try it" section, in order. */
function tryItScript(): string {
  const section = README.slice(README.indexOf('\n## Try it\n'), README.indexOf('\n## ', README.indexOf('\n## Try it\n') + 1));
  const blocks = [...section.matchAll(/^```sh try-it\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  expect(blocks.length, 'README "Try it" has no ```sh try-it block').toBeGreaterThan(0);
  return blocks.join('\n');
}

let platform: RunningPlatform;
let result: Awaited<ReturnType<typeof runDocumentedScript>>;
let answers: PrintedEnvelope[];

beforeAll(async () => {
  platform = await startTestPlatform({ env: { SERVICE_DEMO_API_KEY: KEY, WEBHOOK_ALLOW_LOCAL: '1' } });
  result = await runDocumentedScript(tryItScript(), { KEY, BASE: platform.apiBaseUrl, HOOK_PORT: String(await freePort()) });
  answers = result.answers;
}, 120_000);
afterAll(async () => {
  await platform.stop();
});

type Run = {
  run_id: string;
  status: string;
  instruction: string;
  result_text: string | null;
  output: Record<string, unknown> | null;
  output_error: string | null;
};
const runs = () => answers.map((answer) => answer.data as Partial<Run>).filter((data) => typeof data.run_id === 'string' && 'result_text' in data) as Run[];

it('runs top to bottom without an error, every answer a success', () => {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(answers.length).toBeGreaterThanOrEqual(8);
  for (const answer of answers) expect(answer, JSON.stringify(answer)).toMatchObject({ status: true });
});

it('lists the agents and gets Ada with the key as a bearer', () => {
  const listed = answers.find((answer) => Array.isArray(answer.data.agents))!;
  expect(listed.data.agents).toContainEqual(expect.objectContaining({ id: AGENT, name: 'Ada' }));
  expect(answers).toContainEqual(expect.objectContaining({ data: expect.objectContaining({ agent: expect.objectContaining({ id: AGENT }) }) }));
});

it('waits for the e-mail command to complete, and the outbox has the e-mail with the body the agent wrote', () => {
  const welcome = runs().find((run) => run.instruction.includes('Welcome'))!;
  expect(welcome.status).toBe('completed');
  expect(welcome.output).toMatchObject({ result: 'ok', actions: ['email.send'] });
  const outbox = answers.find((answer) => Array.isArray(answer.data.emails))!;
  expect(outbox.data.emails).toContainEqual(
    expect.objectContaining({ to: 'bob@example.com', subject: 'Welcome', run_id: welcome.run_id, body: expect.stringMatching(/\S/) }),
  );
});

it('returns the structured output in the asked shape, with prose that does not read like a failure', () => {
  const summary = runs().find((run) => run.instruction === 'Summarise the lead')!;
  expect(summary.status).toBe('completed');
  expect(summary.output).toEqual({ company: 'Acme', budget: null });
  expect(summary.output_error).toBeNull();
  expect(summary.result_text).not.toMatch(/need|fail|not run|error|could not/i);
});

it('delivers a signed webhook to the local receiver, and the delivery log shows it', () => {
  expect(result.stdout).toMatch(/^receiver got agent\.command\.completed \{"id":"evt_/m);
  const log = answers.find((answer) => Array.isArray(answer.data.attempts))!;
  expect(log.data.attempts).toContainEqual(expect.objectContaining({ event: 'agent.command.completed', http_status: 200, success: true }));
  const subscriptions = answers.find((answer) => Array.isArray(answer.data.subscriptions))!;
  expect(subscriptions.data.subscriptions).toContainEqual(expect.objectContaining({ active: true, failure_count: 0 }));
});

it('fetches the OpenAPI 3.0 document', () => {
  expect(result.stdout.trim().split('\n').at(-1)).toMatch(/^3\.0\.\d+$/);
});
