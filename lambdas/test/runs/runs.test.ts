import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { command, waitForRun } from '../support/runs';

describe('agent runs with the offline model', () => {
  const ctx = usePlatform({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  const STARTED_DAY = new Date().toISOString().slice(0, 10);

  it('completes a command: prose in result_text and the default envelope, with actions computed from the run', async () => {
    const runId = await command(ctx.api, {
      agent_id: ctx.agentId,
      instruction: 'Please add Jane Doe (jane.doe@example.com) to my contacts.',
      autonomy: 'full',
    });
    const run = await waitForRun(ctx.api, runId);
    expect(run.status).toBe('completed');
    expect(run.result_text).toMatch(/offline/i);
    expect(run.output).toMatchObject({ result: 'ok', actions: ['contacts.create'], files: [], follow_up: null });
    expect(typeof run.output!.summary).toBe('string');
    expect(run.output_error).toBeNull();
    expect(run.usage.input_tokens).toBeGreaterThan(0);
    const contacts = await ctx.api<{ contacts: { name: string; email: string }[] }>('contacts/list/');
    expect(contacts.body.data.contacts).toContainEqual(expect.objectContaining({ name: 'Jane Doe', email: 'jane.doe@example.com' }));
  });

  it('with autonomy full sends e-mail from the agent’s own address into the outbox', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Send an email "Welcome aboard" to bob@example.com.', autonomy: 'full' });
    const run = await waitForRun(ctx.api, runId);
    expect(run.output).toMatchObject({ result: 'ok', actions: ['email.send'] });
    // The shaping call sees the whole run (tool calls and results), so the summary speaks of what was done.
    expect(run.output!.summary).toContain('email__send');
    const outbox = await ctx.api<{ emails: { from: string; to: string; run_id: string; body: string }[] }>('email/outbox/');
    expect(outbox.body.data.emails).toContainEqual(
      expect.objectContaining({
        from: 'ada.5eed0000@agents.service.local',
        to: 'bob@example.com',
        run_id: runId,
        subject: 'Welcome aboard',
        body: expect.stringMatching(/\S/),
      }),
    );
  });

  it('with autonomy read_only (the default) performs nothing and answers needs_input with the pending action', async () => {
    const before = (await ctx.api<{ emails: unknown[] }>('email/outbox/')).body.data.emails.length;
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Send an email "Quote" to carol@example.com.' });
    const run = await waitForRun(ctx.api, runId);
    expect(run.status).toBe('completed');
    expect(run.output).toMatchObject({ result: 'needs_input', actions: [] });
    expect(run.output!.follow_up).toContain('email.send');
    expect(run.output!.follow_up).toContain('carol@example.com');
    expect((await ctx.api<{ emails: unknown[] }>('email/outbox/')).body.data.emails).toHaveLength(before);
  });

  it('shapes output by the schema: every property present, null where the run did not produce it', async () => {
    const runId = await command(ctx.api, {
      agent_id: ctx.agentId,
      instruction: 'Summarise the lead.',
      data: { company: 'Acme GmbH', email: 'buyer@acme.example' },
      schema: {
        type: 'object',
        properties: {
          company: { type: 'string', description: 'Company name of the lead' },
          email: { type: 'string' },
          budget: { type: 'number', description: 'Budget in euros if known' },
          address: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    });
    const run = await waitForRun(ctx.api, runId);
    expect(run.status).toBe('completed');
    expect(run.output).toEqual({ company: 'Acme GmbH', email: 'buyer@acme.example', budget: null, address: { city: null } });
    expect(run.output_error).toBeNull();
    // A summary asks for no action: the prose reports what it read, not a tool it could not use.
    expect(run.result_text).toMatch(/company/);
    expect(run.result_text).not.toMatch(/need|failed|not run/);
  });

  it('keeps the prose and completes when shaping fails, with output null and output_error saying why', async () => {
    const runId = await command(ctx.api, {
      agent_id: ctx.agentId,
      instruction: 'What is the invoice total?',
      schema: { type: 'object', required: ['invoice_total'], properties: { invoice_total: { type: 'number' } } },
    });
    const run = await waitForRun(ctx.api, runId);
    expect(run.status).toBe('completed');
    expect(run.output).toBeNull();
    expect(run.output_error).toMatch(/schema/);
    expect(run.result_text).toBeTruthy();
  });

  it('answers the default summary in the language of the instruction', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Lütfen açık görevleri listeler misin?' });
    const run = await waitForRun(ctx.api, runId);
    expect(run.output!.summary).toMatch(/[çğıöşüÇĞİÖŞÜ]/);
  });

  it('meters tokens per run, per agent and per day into usage/tokens and billing/get', async () => {
    // A run of its own, so the test counts what it made whichever tests ran before it.
    await waitForRun(ctx.api, await command(ctx.api, { agent_id: ctx.agentId, instruction: 'List the open tasks.' }));
    const usage = await ctx.api<{ total: { total_tokens: number; runs: number }; by_agent: { agent_id: string; runs: number }[]; by_day: { date: string }[] }>(
      'usage/tokens/',
    );
    expect(usage.body.data.total.runs).toBeGreaterThanOrEqual(1);
    expect(usage.body.data.total.total_tokens).toBeGreaterThan(0);
    expect(usage.body.data.by_agent.find((row) => row.agent_id === ctx.agentId)!.runs).toBe(usage.body.data.total.runs);
    // The days of this file's runs: today's (UTC), and the day before too when the file ran across midnight.
    const days = usage.body.data.by_day.map((row) => row.date);
    expect(days.length).toBeGreaterThan(0);
    for (const date of days) expect([STARTED_DAY, new Date().toISOString().slice(0, 10)]).toContain(date);
    const billing = await ctx.api<{ tokens_used: number }>('billing/get/');
    expect(billing.body.data.tokens_used).toBe(usage.body.data.total.total_tokens);
  });

  it('cancels a run that is still queued, and the runner leaves it alone', async () => {
    await ctx.platform.queue.stop();
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'List my tasks.' });
    const cancelled = await ctx.api<{ status: string }>('agents/command_cancel/', { body: { run_id: runId } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    ctx.platform.queue.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await waitForRun(ctx.api, runId)).status).toBe('cancelled');
    // A repeated cancel (a retry after a lost answer) answers the cancelled run.
    const again = await ctx.api<{ status: string; cancelled_by: string }>('agents/command_cancel/', { body: { run_id: runId } });
    expect([again.status, again.body.data.status, again.body.data.cancelled_by]).toEqual([200, 'cancelled', 'api_key']);
  });
});
