import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { MAX_RUN_ATTEMPTS } from '../../src/runtime/run-consumer';
import { usePlatform } from '../support/platform';
import { command, waitForRun } from '../support/runs';

describe('a run that crashes the runner', () => {
  let calls = 0;
  const crashingModel = new MockLanguageModelV4({
    doGenerate: async () => {
      calls += 1;
      throw new Error('model endpoint unreachable');
    },
  });
  const ctx = usePlatform({ model: crashingModel, queue: { visibilityTimeoutMs: { runs: 50 } } });

  it('is retried by the queue and ends failed with the reason, never stuck queued', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Do something' });
    const run = await waitForRun(ctx.api, runId, 20_000);
    expect(run.status).toBe('failed');
    expect(run.error).toContain('model endpoint unreachable');
    expect(calls).toBeGreaterThanOrEqual(MAX_RUN_ATTEMPTS);
  });
});
