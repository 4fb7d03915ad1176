import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { usePlatform } from './support/platform';
import { command, waitForRun } from './support/runs';
import { scriptedModel } from './support/scripted-model';

/** Everything the process writes while the runs below go through their happy and failing paths. */
let written = '';
const capture = (chunk: string | Uint8Array) => {
  written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
  return true;
};

describe('structured logs', () => {
  // The model's one scripted turn calls a skill (a turn token is minted and sent to it); every later call fails, so
  // the runner logs each failed attempt and then the run's failure.
  const model = scriptedModel([{ toolCalls: [{ toolName: 'email__send', input: { to: 'bob@example.com', subject: 'Hi', body: 'Hello Bob' } }] }]);
  const ctx = usePlatform({ model, queue: { visibilityTimeoutMs: { runs: 300 } } });
  beforeAll(() => {
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterAll(() => vi.restoreAllMocks());

  it('log a failing run as JSON lines with its run and workspace, and never the API key or a turn token', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Send an email "Hi" to bob@example.com', autonomy: 'full' });
    expect((await waitForRun(ctx.api, runId, 20_000)).status).toBe('failed');
    expect((await ctx.api<{ emails: { subject: string }[] }>('email/outbox/')).body.data.emails).toContainEqual(expect.objectContaining({ subject: 'Hi' }));
    const lines = written
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'ERROR', message: 'run failed', runId, workspaceId: expect.any(String) }));
    expect(written).not.toContain(ctx.key);
    expect(written).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/); // no JWT (turn token)
  });
});
