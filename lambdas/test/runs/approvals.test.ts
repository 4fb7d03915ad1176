import { verifyRequest } from '@service/webhooks';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepRuns } from '../../src/domains/runs/runtime/run-sweeper';
import { crashThenRestart } from '../support/crash-platform';
import { openApiProblems } from '../support/openapi';
import { apiClient, usePlatform, type ApiCall, type ApiResponse } from '../support/platform';
import { command, contactsNamed, until, type RunView } from '../support/runs';
import { scriptedModel } from '../support/scripted-model';
import { createWorkspace } from '../support/workspaces';
import { startReceiver, type Receiver } from '../webhooks/receiver';

type PendingAction = { approval_id: string; capability: string; arguments: Record<string, unknown>; reason: string; requested_at: string; expires_at: string };
type ApprovalView = RunView & { autonomy: string; pending_action: PendingAction | null; cancelled_by: string | null };
type Step = { seq: number; type: string; [field: string]: unknown };

const adding = (name: string) => `Please add ${name} (${name.split(' ')[0]!.toLowerCase()}@example.com) to my contacts.`;

const statusOf = async (api: ApiCall, runId: string) =>
  (await api<ApprovalView & { steps: Step[] }>('agents/command_status/', { query: { run_id: runId, steps_limit: '200' } })).body.data;
/** Waits until the run is in `status` (a condition, never a fixed sleep). */
const runIn = (api: ApiCall, runId: string, status: string, timeoutMs?: number) =>
  until(
    () => statusOf(api, runId),
    (run) => run.status === status,
    timeoutMs,
  );

describe('autonomy confirm: a run waits for a person before it acts', () => {
  let clockShiftMs = 0;
  const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '100000' }, now: () => new Date(Date.now() + clockShiftMs) });
  let hooks: Receiver;
  let signingSecret: string;

  beforeAll(async () => {
    hooks = await startReceiver();
    const created = await ctx.api<{ signing_secret: string }>('webhooks/create/', {
      body: { url: hooks.url, events: ['agent.command.action_required', 'agent.command.completed'] },
    });
    signingSecret = created.body.data.signing_secret;
  });
  afterAll(async () => {
    await hooks?.close();
  });

  let waitingId: string;

  it('stops in requires_action with the pending action, its reason and expiry, before acting; says so in a signed webhook and in its steps', async () => {
    waitingId = await command(ctx.api, { agent_id: ctx.agentId, instruction: adding('Grace Hopper'), autonomy: 'confirm' });
    const run = await runIn(ctx.api, waitingId, 'requires_action');
    expect(run.autonomy).toBe('confirm');
    expect(run.pending_action).toMatchObject({
      capability: 'contacts.create',
      arguments: expect.objectContaining({ name: 'Grace Hopper' }),
      reason: expect.any(String),
    });
    expect(run.pending_action!.reason.length).toBeGreaterThan(0);
    expect(Date.parse(run.pending_action!.expires_at) - Date.parse(run.pending_action!.requested_at)).toBe(24 * 3_600_000);
    expect(await contactsNamed(ctx.api, 'Grace Hopper')).toBe(0);
    expect(run.steps.map((step) => step.type)).toEqual(expect.arrayContaining(['approval_requested']));
    expect(run.steps.at(-1)).toMatchObject({ type: 'status', status: 'requires_action' });
    expect(openApiProblems('agentsCommandStatus', (await ctx.api('agents/command_status/', { query: { run_id: waitingId } })) as ApiResponse<unknown>)).toEqual(
      [],
    );

    const delivery = await until(async () => hooks.requests.find((request) => request.event.event === 'agent.command.action_required'), Boolean);
    const verified = await verifyRequest(
      new Request(hooks.url, { method: 'POST', headers: delivery!.headers as Record<string, string>, body: delivery!.rawBody.toString('utf8') }),
      signingSecret,
    );
    expect(verified.data).toMatchObject({
      run_id: waitingId,
      status: 'requires_action',
      action: { approval_id: run.pending_action!.approval_id, capability: 'contacts.create' },
    });
  });

  it('lists the run under agents/approvals ("Waiting for you")', async () => {
    const waiting = await ctx.api<{ runs: { run_id: string; pending_action: PendingAction }[] }>('agents/approvals/', { query: {} });
    expect(waiting.status).toBe(200);
    expect(openApiProblems('agentsApprovals', waiting as ApiResponse<unknown>)).toEqual([]);
    expect(waiting.body.data.runs.map((run) => run.run_id)).toContain(waitingId);
  });

  it('takes the first of two racing approvals: the action happens exactly once, the other answer is 409 APPROVAL_NOT_PENDING', async () => {
    const answers = await Promise.all(
      [1, 2].map(() => ctx.api<ApprovalView>('agents/command_approve/', { body: { run_id: waitingId, note: 'Yes, add her' } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(refused.body.error).toEqual({ code: 'APPROVAL_NOT_PENDING', field: 'run_id' });
    expect(openApiProblems('agentsCommandApprove', answers.find((answer) => answer.status === 200) as ApiResponse<unknown>)).toEqual([]);
    expect(openApiProblems('agentsCommandApprove', refused as ApiResponse<unknown>)).toEqual([]);

    const done = await runIn(ctx.api, waitingId, 'completed');
    expect(done.pending_action).toBeNull();
    expect(await contactsNamed(ctx.api, 'Grace Hopper')).toBe(1);
    const types = done.steps.map((step) => step.type);
    expect(types.indexOf('approval_answered')).toBeGreaterThan(types.indexOf('approval_requested'));
    expect(done.steps.find((step) => step.type === 'approval_answered')).toMatchObject({ decision: 'approved', answered_by: 'api_key', note: 'Yes, add her' });
    expect(done.steps.filter((step) => step.type === 'tool_call' && step.capability === 'contacts.create')).toHaveLength(1);
    expect(done.steps.map((step) => step.seq)).toEqual(done.steps.map((_, index) => index));
  });

  it('streams the wait and the answer live: the stream stays open while the run waits, then goes on to the end', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: adding('Streamed Sam'), autonomy: 'confirm' });
    const response = await fetch(`${ctx.platform.apiBaseUrl}/agents/command_stream?run_id=${runId}`, { headers: { 'x-service-api-key': ctx.key } });
    expect(response.status).toBe(200);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const readUntil = async (name: string) => {
      while (!events.some((event) => event.event === name)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${name}: ${events.map((event) => event.event).join(', ')}`);
        parser.feed(value);
      }
    };
    await readUntil('approval_requested');
    expect(JSON.parse(events.find((event) => event.event === 'approval_requested')!.data)).toMatchObject({
      capability: 'contacts.create',
      arguments: expect.objectContaining({ name: 'Streamed Sam' }),
    });
    expect((await ctx.api('agents/command_approve/', { body: { run_id: runId } })).status).toBe(200);
    await readUntil('run');
    await reader.cancel();
    const names = events.map((event) => event.event);
    expect(names.indexOf('approval_answered')).toBeGreaterThan(names.indexOf('approval_requested'));
    expect(names).toContain('tool_call');
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ run_id: runId, status: 'completed' });
    // The steps count on through the wait; the text pieces between them are numbered after the step they follow.
    const steps = events.filter((event) => event.event !== 'text_delta');
    expect(steps.map((event) => Number(event.id))).toEqual(steps.map((_, index) => index));
  });

  it('tells the model of a rejection, which carries on without the action', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: adding('Rejected Rita'), autonomy: 'confirm' });
    await runIn(ctx.api, runId, 'requires_action');
    const rejected = await ctx.api<ApprovalView>('agents/command_reject/', { body: { run_id: runId, note: 'Not this one' } });
    expect(rejected.status).toBe(200);
    expect(openApiProblems('agentsCommandReject', rejected as ApiResponse<unknown>)).toEqual([]);
    const done = await runIn(ctx.api, runId, 'completed');
    expect(await contactsNamed(ctx.api, 'Rejected Rita')).toBe(0);
    expect(done.steps.find((step) => step.type === 'approval_answered')).toMatchObject({ decision: 'rejected', note: 'Not this one' });
    expect(done.steps.some((step) => step.type === 'tool_call')).toBe(false);
  });

  it('refuses to approve a run that waits for nothing, and treats another workspace’s run as unknown', async () => {
    const again = await ctx.api('agents/command_approve/', { body: { run_id: waitingId } });
    expect([again.status, again.body.error]).toEqual([409, { code: 'APPROVAL_NOT_PENDING', field: 'run_id' }]);
    const other = await createWorkspace(ctx.platform.deps);
    const foreign = await apiClient(ctx.platform.apiBaseUrl, other.apiKey)('agents/command_approve/', { body: { run_id: waitingId } });
    expect([foreign.status, (foreign.body.error as { code: string }).code]).toEqual([404, 'RUN_NOT_FOUND']);
    const malformed = await ctx.api('agents/command_reject/', { body: { run_id: 'nope' } });
    expect([malformed.status, malformed.body.error]).toEqual([400, { code: 'VALIDATION_ERROR', field: 'run_id' }]);
  });

  it('shows the approval step of a waiting run whose runner has not stored it yet, then the same steps once stored', async () => {
    // The runner's write of the two waiting steps is held, as for a runner slow (or dead) just after parking the run.
    const doc = ctx.platform.deps.store.doc;
    const send = doc.send.bind(doc) as (...args: unknown[]) => Promise<unknown>;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let stored: Promise<unknown> | undefined;
    doc.send = ((...args: [{ input?: { RequestItems?: unknown } }, ...unknown[]]) => {
      if (!JSON.stringify(args[0].input?.RequestItems ?? null).includes('approval_requested')) return send(...args);
      stored = released.then(() => send(...args));
      return stored;
    }) as typeof doc.send;
    try {
      const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: adding('Held Hal'), autonomy: 'confirm' });
      const waiting = await runIn(ctx.api, runId, 'requires_action');
      expect(stored).toBeDefined();
      expect(waiting.steps.slice(-2)).toMatchObject([
        { type: 'approval_requested', approval_id: waiting.pending_action!.approval_id, capability: 'contacts.create' },
        { type: 'status', status: 'requires_action' },
      ]);
      expect(waiting.steps.map((step) => step.seq)).toEqual(waiting.steps.map((_, index) => index));
      release();
      await stored;
      expect((await statusOf(ctx.api, runId)).steps).toEqual(waiting.steps);
      await ctx.api('agents/command_cancel/', { body: { run_id: runId } });
    } finally {
      release();
      doc.send = send as typeof doc.send;
    }
  });

  it('stops a waiting run with agents/command_cancel: it ends cancelled and never acts', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: adding('Cancelled Carl'), autonomy: 'confirm' });
    await runIn(ctx.api, runId, 'requires_action');
    const cancelled = await ctx.api<ApprovalView>('agents/command_cancel/', { body: { run_id: runId } });
    expect([cancelled.status, cancelled.body.data.status, cancelled.body.data.cancelled_by]).toEqual([200, 'cancelled', 'api_key']);
    const late = await ctx.api('agents/command_approve/', { body: { run_id: runId } });
    expect(late.status).toBe(409);
    expect(await contactsNamed(ctx.api, 'Cancelled Carl')).toBe(0);
  });

  it('ends an approval nobody answered within 24 hours: 409 APPROVAL_EXPIRED, then the sweeper cancels the run with the reason', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: adding('Expired Eve'), autonomy: 'confirm' });
    await runIn(ctx.api, runId, 'requires_action');
    clockShiftMs = 25 * 3_600_000;
    const late = await ctx.api('agents/command_approve/', { body: { run_id: runId } });
    expect([late.status, late.body.error]).toEqual([409, { code: 'APPROVAL_EXPIRED', field: 'run_id' }]);
    expect((await sweepRuns(ctx.platform.deps)).expired).toContain(runId);
    const ended = await statusOf(ctx.api, runId);
    expect(ended).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'approval_expired',
      error: expect.stringContaining('Nobody approved or rejected contacts.create'),
    });
    expect(await contactsNamed(ctx.api, 'Expired Eve')).toBe(0);
  });
});

describe('a platform killed with SIGKILL between an approval and the action, then restarted on the same data', () => {
  it('performs the approved action exactly once', async () => {
    const name = 'Crash Cora';
    let runId = '';
    await crashThenRestart(
      // The approval is stored (and the run put back in the queue): the machine dies before the queue message and the action.
      { CRASH_AFTER: 'UpdateCommand:runs:pendingAction.decision' },
      // A clock a minute on, so the restarted platform's sweeper sends the message the crash lost at its first sweep.
      { RATE_LIMIT_PER_MINUTE: '100000', CLOCK_SHIFT_MS: '90000', SWEEP_EVERY_MS: '500' },
      async (api, agentId) => {
        runId = await command(api, { agent_id: agentId, instruction: adding(name), autonomy: 'confirm' });
        await runIn(api, runId, 'requires_action');
        await api('agents/command_approve/', { body: { run_id: runId } }).catch(() => undefined);
      },
      async (api) => {
        const done = await runIn(api, runId, 'completed', 60_000);
        expect(done.steps.find((step) => step.type === 'approval_answered')).toMatchObject({ decision: 'approved' });
        expect(await contactsNamed(api, name)).toBe(1);
      },
    );
  }, 150_000);
});

describe('a confirm run whose conversation is too large to keep while it waits', () => {
  // A turn of long prose that then asks to add a contact: a retry would play it again, and the run fails at once instead.
  // Notes without spaces: the mock streams a delta per two words, and 40,000 words, all ready at once, would hold the
  // platform's one event loop for long (a hosted model's deltas come over the network, spread out).
  const oversized = {
    text: 'Long-notes.'.repeat(20_000),
    toolCalls: [{ toolName: 'contacts__create', input: { name: 'Big Bertha', email: 'big@example.com' } }],
  };
  const ctx = usePlatform({ model: scriptedModel([oversized]), env: { RATE_LIMIT_PER_MINUTE: '100000' } });

  it('fails with the reason instead of waiting, and never acts', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: adding('Big Bertha'), autonomy: 'confirm' });
    const run = await until(
      () => statusOf(ctx.api, runId),
      (current) => current.status === 'failed',
    );
    expect(run.error).toContain('could not wait for approval: its conversation is over 200 KB');
    expect(run.steps.some((step) => step.type === 'approval_requested')).toBe(false);
    expect(await contactsNamed(ctx.api, 'Big Bertha')).toBe(0);
  }, 60_000);
});
