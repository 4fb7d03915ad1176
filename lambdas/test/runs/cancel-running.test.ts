import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRun, requestRunStop, takeRun } from '../../src/domains/runs/runs';
import { sweepRuns } from '../../src/domains/runs/runtime/run-sweeper';
import { openApiProblems } from '../support/openapi';
import { apiClient, usePlatform, type ApiResponse } from '../support/platform';
import { command, until, waitForRun, type RunView } from '../support/runs';
import { scriptedModel } from '../support/scripted-model';
import { createWorkspace } from '../support/workspaces';
import { offerWeatherSkill, startBareMcpServer, type BareServer } from '../skills/bare-mcp-server';
import { envelopeTurn } from '../skills/helpers';

type CancelView = RunView & { cancel_requested_at: string | null; cancelled_by: string | null };

describe('agents/command_cancel on a running run', () => {
  const model = scriptedModel([
    // The run that is stopped: its first turn writes and calls the slow tool; the turns after it must never be played.
    { text: 'Checking the forecast for Ankara.', toolCalls: [{ toolName: 'weather__forecast', input: { city: 'Ankara' } }], usage: { input: 12, output: 7 } },
    // The next run, which completes.
    { text: 'All quiet.' },
    envelopeTurn('Nothing to do.'),
  ]);
  const ctx = usePlatform({ model, env: { WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '100000' } });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let weather: BareServer;
  let stoppedRunId: string;

  beforeAll(async () => {
    weather = await startBareMcpServer({ gate: () => gate });
    await offerWeatherSkill(ctx.api, weather, ctx.agentId, 'admin');
  });
  afterAll(async () => {
    release();
    await weather?.close();
  });

  it('answers the run cancelled with its text and usage so far, and no further model turn or tool call starts', async () => {
    stoppedRunId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'What is the weather in Ankara and Izmir?' });
    await until(
      async () => weather.calls.length,
      (calls) => calls === 1,
    );

    const cancelled = await ctx.api<CancelView>('agents/command_cancel/', { body: { run_id: stoppedRunId } });
    expect(cancelled.status).toBe(200);
    expect(openApiProblems('agentsCommandCancel', cancelled as ApiResponse<unknown>)).toEqual([]);
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      result_text: 'Checking the forecast for Ankara.',
      usage: { input_tokens: 12, output_tokens: 7 },
      cancelled_by: 'api_key',
      cancel_requested_at: expect.any(String),
      completed_at: expect.any(String),
    });

    // The slow tool answers now; a runner that went on would call the model (and the tool) again.
    release();
    const next = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Anything new?' });
    expect((await waitForRun(ctx.api, next)).status).toBe('completed');
    expect(weather.calls).toHaveLength(1);
    expect(model.calls).toHaveLength(3);
    expect(await waitForRun(ctx.api, stoppedRunId)).toMatchObject({ status: 'cancelled', result_text: 'Checking the forecast for Ankara.' });
  }, 60_000);

  it('answers a cancelled run as it is when the cancel is repeated', async () => {
    const again = await ctx.api<CancelView>('agents/command_cancel/', { body: { run_id: stoppedRunId } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'cancelled', result_text: 'Checking the forecast for Ankara.' });
  });

  it('refuses a run that already completed with 409 RUN_NOT_CANCELLABLE, and leaves it completed', async () => {
    const runs = await ctx.api<{ runs: RunView[] }>('agents/runs/', { query: { agent_id: ctx.agentId, limit: '10' } });
    const done = runs.body.data.runs.find((run) => run.status === 'completed')!;
    const refused = await ctx.api('agents/command_cancel/', { body: { run_id: done.run_id } });
    expect([refused.status, refused.body.error]).toEqual([409, { code: 'RUN_NOT_CANCELLABLE', field: 'run_id' }]);
    expect(openApiProblems('agentsCommandCancel', refused as ApiResponse<unknown>)).toEqual([]);
    expect((await waitForRun(ctx.api, done.run_id)).status).toBe('completed');
  });

  it("answers another workspace's run 404 RUN_NOT_FOUND", async () => {
    const other = await createWorkspace(ctx.platform.deps);
    const otherApi = apiClient(ctx.platform.apiBaseUrl, other.apiKey);
    const refused = await otherApi('agents/command_cancel/', { body: { run_id: stoppedRunId } });
    expect([refused.status, refused.body.error?.code]).toEqual([404, 'RUN_NOT_FOUND']);
  });
});

describe('a run asked to stop whose runner is gone', () => {
  const ctx = usePlatform({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });

  it('is ended cancelled by the sweeper once its lease lapsed, and never taken again', async () => {
    await ctx.platform.queue.stop();
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'List my tasks.' });
    // A runner takes it, then dies (nothing renews its lease) after the stop was recorded.
    expect(await takeRun(ctx.platform.deps, runId)).toBeDefined();
    expect(await requestRunStop(ctx.platform.deps, runId, 'api_key')).toBe(true);
    const later = { ...ctx.platform.deps, now: () => new Date(Date.now() + 60_000) };
    await sweepRuns(later);
    expect(await findRun(ctx.platform.deps, runId)).toMatchObject({ status: 'cancelled', cancelledBy: 'api_key' });
    expect(await takeRun(later, runId)).toBeUndefined();
  });
});
