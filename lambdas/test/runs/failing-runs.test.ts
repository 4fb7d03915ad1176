import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { RESULT_TEXT_MAX_CHARS } from '../../src/domains/runs/runs';
import { scriptedModel } from '../support/scripted-model';
import { MAX_RUN_ATTEMPTS } from '../../src/domains/runs/runs';
import { usePlatform } from '../support/platform';
import { command, waitForRun } from '../support/runs';

describe('a run that crashes the runner', () => {
  let calls = 0;
  const unreachable = async (): Promise<never> => {
    calls += 1;
    throw new Error('model endpoint unreachable');
  };
  const crashingModel = new MockLanguageModelV4({ doGenerate: unreachable, doStream: unreachable });
  const ctx = usePlatform({ model: crashingModel, queue: { visibilityTimeoutMs: { runs: 500 } } });

  it('is retried by the queue and ends failed with the reason, never stuck queued', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Do something' });
    const run = await waitForRun(ctx.api, runId, 20_000);
    expect(run.status).toBe('failed');
    expect(run.error).toContain('model endpoint unreachable');
    expect(calls).toBeGreaterThanOrEqual(MAX_RUN_ATTEMPTS);
  });
});

describe('a model that writes more than a run record can hold', () => {
  const ctx = usePlatform({ model: scriptedModel([{ text: 'word '.repeat(20_000) }, { text: 'not json' }]) });

  it('completes the run with its prose truncated, never failing at the database', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Write a very long essay' });
    const run = await waitForRun(ctx.api, runId);
    expect(run.status).toBe('completed');
    expect(run.result_text!.length).toBeLessThanOrEqual(RESULT_TEXT_MAX_CHARS + 20);
    expect(run.result_text).toMatch(/\[truncated\]$/);
  });
});
