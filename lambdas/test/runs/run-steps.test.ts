import { wrapLanguageModel } from 'ai';
import type { EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '@service/offline-model';
import { usePlatform } from '../support/platform';
import { openEventStream as openStream } from '../support/sse';
import { command, waitForRun } from '../support/runs';
import { createWorkspace } from '../support/workspaces';
import { subscribe } from '../webhooks/helpers';
import { startReceiver } from '../webhooks/receiver';

/**
 * The model waits for the test before each call while `gated` is set: a live run advances one model turn at a time,
 * so "mid-run" is a state the test holds, never a timing.
 */
const gate = { gated: false, waiting: [] as (() => void)[] };
const releaseTurn = async () => {
  while (gate.waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  gate.waiting.shift()!();
};
const passGate = async () => {
  if (gate.gated) await new Promise<void>((resolve) => gate.waiting.push(resolve));
};
const model = wrapLanguageModel({
  model: createOfflineModel(),
  middleware: {
    specificationVersion: 'v3',
    // The acting turns stream, the shaping of the output does not: both wait.
    wrapStream: async ({ doStream }) => (await passGate(), doStream()),
    wrapGenerate: async ({ doGenerate }) => (await passGate(), doGenerate()),
  },
});
/** The stream's events but its text pieces: the steps, then the run. */
const withoutPieces = (events: EventSourceMessage[]) => events.filter((event) => event.event !== 'text_delta');

interface Step {
  seq: number;
  type: string;
  status?: string;
  capability?: string;
  skill?: string;
  arguments?: Record<string, unknown>;
  result?: unknown;
  error?: string | null;
  duration_ms?: number;
}

describe('a run’s steps and its live stream', () => {
  const ctx = usePlatform({ model, env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  const streamUrl = (runId: string, query = '') => `${ctx.platform.apiBaseUrl}/agents/command_stream?run_id=${runId}${query}`;
  const auth = () => ({ 'x-service-api-key': ctx.key });

  afterEach(() => {
    gate.gated = false;
    gate.waiting.splice(0).forEach((resume) => resume());
  });

  it('records each step of a run with a tool call, secrets redacted, and pages them', async () => {
    const secret = 'sk_live_AbCdEfGhIjKlMnOpQrStUvWx0123456789';
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: `Send an email "Your key is ${secret}" to bob@example.com.`, autonomy: 'full' });
    await waitForRun(ctx.api, runId);
    const status = await ctx.api<{ status: string; steps: Step[]; steps_next_cursor: string | null }>('agents/command_status/', { query: { run_id: runId } });
    const { steps } = status.body.data;
    expect(steps.map((step) => step.seq)).toEqual(steps.map((_, index) => index));
    expect(steps[0]).toMatchObject({ type: 'status', status: 'queued' });
    expect(steps[1]).toMatchObject({ type: 'status', status: 'running' });
    expect(steps.at(-1)).toMatchObject({ type: 'status', status: 'completed' });
    expect(status.body.data.steps_next_cursor).toBeNull();
    const call = steps.find((step) => step.type === 'tool_call')!;
    expect(call).toMatchObject({ skill: 'email', capability: 'email.send', error: null });
    expect(call.duration_ms).toBeGreaterThanOrEqual(0);
    expect(call.arguments!.to).toBe('bob@example.com');
    expect(JSON.stringify(steps)).not.toContain(secret);
    expect(JSON.stringify(call.arguments)).toContain('[redacted]');
    expect(steps.filter((step) => step.type === 'text').length).toBeGreaterThanOrEqual(1);

    // Two at a time: the pages join up to the same timeline.
    const paged: Step[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await ctx.api<{ steps: Step[]; steps_next_cursor: string | null }>('agents/command_status/', {
        query: { run_id: runId, steps_limit: '2', ...(cursor ? { steps_cursor: cursor } : {}) },
      });
      expect(page.body.data.steps.length).toBeLessThanOrEqual(2);
      paged.push(...page.body.data.steps);
      cursor = page.body.data.steps_next_cursor;
    } while (cursor);
    expect(paged).toEqual(steps);
    const bad = await ctx.api('agents/command_status/', { query: { run_id: runId, steps_cursor: 'x' } });
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'steps_cursor' });
  });

  it('streams a live run: every event in order with its id, then the run, then closes', async () => {
    gate.gated = true;
    const runId = await command(ctx.api, {
      agent_id: ctx.agentId,
      instruction: 'Please add Jane Roe (jane.roe@example.com) to my contacts.',
      autonomy: 'full',
    });
    const stream = openStream(streamUrl(runId), auth());
    await stream.waitFor(() => stream.events.some((event) => event.event === 'status' && JSON.parse(event.data).status === 'running'));
    expect(stream.events.some((event) => event.event === 'run')).toBe(false);
    expect((await stream.response).headers.get('content-type')).toMatch(/^text\/event-stream/);
    gate.gated = false;
    gate.waiting.splice(0).forEach((resume) => resume());
    const answer = await stream.finished;
    expect(answer.status).toBe(200);
    const names = stream.events.map((event) => event.event);
    expect(names[0]).toBe('status');
    expect(names).toContain('tool_call');
    expect(names).toContain('text');
    expect(names.at(-1)).toBe('run');
    expect(names).toContain('text_delta');
    expect(withoutPieces(stream.events).map((event) => Number(event.id))).toEqual(withoutPieces(stream.events).map((_, index) => index));
    expect(JSON.parse(stream.events.at(-1)!.data)).toMatchObject({ run_id: runId, status: 'completed' });
    expect(JSON.parse(stream.events.at(-2)!.data)).toMatchObject({ type: 'status', status: 'completed' });
  });

  it('resumes by Last-Event-ID after a dropped connection: exactly the missed events, then the rest', async () => {
    gate.gated = true;
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Please add Max Roe (max.roe@example.com) to my contacts.', autonomy: 'full' });
    const first = openStream(streamUrl(runId), auth());
    await first.waitFor(() => first.events.some((event) => event.event === 'status' && JSON.parse(event.data).status === 'running'));
    first.drop();
    const seen = first.events.map((event) => event.id);
    // The run goes on while no one watches: the first model turn (its tool call) is taken.
    await releaseTurn();
    gate.gated = false;
    gate.waiting.splice(0).forEach((resume) => resume());
    const run = await waitForRun(ctx.api, runId);
    expect(run.status).toBe('completed');

    const resumed = openStream(streamUrl(runId), { ...auth(), 'last-event-id': String(seen.at(-1)) });
    await resumed.finished;
    const whole = openStream(streamUrl(runId), auth());
    await whole.finished;
    const resumedIds = resumed.events.map((event) => event.id);
    expect([...seen, ...resumedIds]).toEqual(whole.events.map((event) => event.id));
    expect(resumed.events.map((event) => event.data)).toEqual(whole.events.slice(seen.length).map((event) => event.data));
  });

  it('streams a finished run’s whole history and closes', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Please add Ann Lee (ann.lee@example.com) to my contacts.', autonomy: 'full' });
    await waitForRun(ctx.api, runId);
    const status = await ctx.api<{ steps: Step[] }>('agents/command_status/', { query: { run_id: runId } });
    const stream = openStream(streamUrl(runId), auth());
    await stream.finished;
    expect(
      withoutPieces(stream.events)
        .slice(0, -1)
        .map((event) => JSON.parse(event.data)),
    ).toEqual(status.body.data.steps);
    expect(stream.events.at(-1)!.event).toBe('run');
  });

  it('answers 404 RUN_NOT_FOUND before any event for an unknown run or another workspace’s run; 401 without a key', async () => {
    const unknown = await fetch(streamUrl('cmd_doesnotexist0000000000'), { headers: auth() });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/application\/json/);
    expect(await unknown.json()).toMatchObject({ error: { code: 'RUN_NOT_FOUND' } });

    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Hello', autonomy: 'full' });
    const other = await createWorkspace(ctx.platform.deps);
    const foreign = await fetch(streamUrl(runId), { headers: { 'x-service-api-key': other.apiKey } });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ error: { code: 'RUN_NOT_FOUND' } });
    const anonymous = await fetch(streamUrl(runId));
    expect(anonymous.status).toBe(401);
    const badId = await fetch(streamUrl(runId), { headers: { ...auth(), 'last-event-id': 'nope' } });
    expect(badId.status).toBe(400);
  });

  it('a reader that never reads does not delay the run', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Please add Bo Slow (bo.slow@example.com) to my contacts.', autonomy: 'full' });
    // Opened and never read from: its socket fills, the run goes on.
    const stalled = await fetch(streamUrl(runId), { headers: auth() });
    const run = await waitForRun(ctx.api, runId);
    expect(run.status).toBe('completed');
    await stalled.body?.cancel();
  });
});

describe('the webhook of a finished run', () => {
  const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '1000' } });

  it('says how many steps the run took, as command_status lists them', async () => {
    const hook = await startReceiver();
    try {
      await subscribe(ctx.api, hook.url);
      const runId = await command(ctx.api, {
        agent_id: ctx.agentId,
        instruction: 'Please add Hal Hook (hal.hook@example.com) to my contacts.',
        autonomy: 'full',
      });
      await waitForRun(ctx.api, runId);
      const status = await ctx.api<{ steps: Step[] }>('agents/command_status/', { query: { run_id: runId } });
      await hook.waitFor((requests) => requests.some((request) => request.rawBody.toString().includes(runId)));
      const body = JSON.parse(hook.requests.find((request) => request.rawBody.toString().includes(runId))!.rawBody.toString()) as {
        event: string;
        data: { steps_count: number };
      };
      expect(body.event).toBe('agent.command.completed');
      expect(body.data.steps_count).toBe(status.body.data.steps.length);
    } finally {
      await hook.close();
    }
  });
});

describe('a run its first attempt gave back', () => {
  let failNext = true;
  const flaky = wrapLanguageModel({
    model: createOfflineModel(),
    middleware: {
      specificationVersion: 'v3',
      wrapStream: async ({ doStream }) => {
        if (failNext) {
          failNext = false;
          throw new Error('model briefly unreachable');
        }
        return doStream();
      },
    },
  });
  const ctx = usePlatform({ model: flaky, queue: { visibilityTimeoutMs: { runs: 300 } } });

  it('keeps both attempts in one timeline, each step once, in order', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Hello there', autonomy: 'full' });
    const run = await waitForRun(ctx.api, runId, 20_000);
    expect(run.status).toBe('completed');
    const { steps } = (await ctx.api<{ steps: Step[] }>('agents/command_status/', { query: { run_id: runId } })).body.data;
    expect(steps.map((step) => step.seq)).toEqual(steps.map((_, index) => index));
    expect(steps.filter((step) => step.type === 'status').map((step) => step.status)).toEqual(['queued', 'running', 'running', 'completed']);
  });
});
