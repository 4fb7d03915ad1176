import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDocumentedScript } from '../support/bash';
import { obedientTurn, startObedientModel, textOf, type ChatRequest, type Turn } from '../support/obedient-model';
import { usePlatform, type ApiCall } from '../support/platform';
import { localChatUrl, widgetVisitor } from '../support/widget-visitor';
import { command, until, waitForRun } from '../support/runs';
import { createSource, upload } from '../knowledge/helpers';
import { createEvalRunOrFind, putResultOnce, readEvalRun } from '../../src/domains/evals/eval-run-repository';
import { EVAL_QUIET_MS, MAX_EVAL_ATTEMPTS } from '../../src/domains/evals/attempts';
import { sweepEvalRuns } from '../../src/domains/evals/eval-sweeper';

// Evals (issue 30, items 1 and 2): scenarios saved from a widget conversation, played against the live agent and its
// draft, the diff between runs, publishing gated on the suite, and acting tools sandboxed. The offline model ignores
// personas, so the agent's model here is an OpenAI-compatible one on loopback whose answer follows the system prompt:
// it says what the persona's "Answer:" line says, and sends the e-mail a command asks for.

const ANSWER = /Answer: ([^\n]*)/;
const EMAIL_ASKED = /e-?mail ([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/i;
const SEARCH_ASKED = /^Search: (.+)$/;

function personaTurn(request: ChatRequest): Turn {
  if (request.response_format) return obedientTurn(request);
  const system = request.messages
    .filter((message) => message.role === 'system')
    .map((message) => textOf(message.content))
    .join('\n');
  const lastUser = request.messages.findLastIndex((message) => message.role === 'user');
  const asked = EMAIL_ASKED.exec(textOf(request.messages[lastUser]?.content));
  const called = request.messages.slice(lastUser + 1).some((message) => message.role === 'tool');
  if (asked && !called && (request.tools ?? []).some((tool) => tool.function.name === 'email__send')) {
    return { toolCall: { name: 'email__send', arguments: { to: asked[1], subject: 'Hello', body: 'Hello from the agent.' } } };
  }
  // "Search: …": the knowledge is searched, and the answer says what came back.
  const search = SEARCH_ASKED.exec(textOf(request.messages[lastUser]?.content));
  if (search && !called && (request.tools ?? []).some((tool) => tool.function.name === 'knowledge__search'))
    return { toolCall: { name: 'knowledge__search', arguments: { query: search[1] } } };
  if (search && called) return { text: `Found: ${textOf(request.messages.at(-1)?.content)}` };
  const answer = ANSWER.exec(system)?.[1] ?? 'I have no answer.';
  // Asked by the e-mail prompt, it says so, and writes a widget marker a mail must not show.
  return { text: system.includes("You answer a customer's e-mail") ? `${answer} See [Page:our refund policy|/refunds]. (Answered by mail.)` : answer };
}

const model = await startObedientModel(personaTurn);
afterAll(() => model.close());

const GOOD = 'Answer: Refunds are paid within 30 days.';
const BROKEN = 'Answer: Refunds are paid whenever we feel like it.';

type EvalRunStatus = {
  eval_run: { eval_run_id: string; status: string; passed: number; failed: number; pass_rate: number | null };
  results: {
    scenario_id: string;
    name: string;
    passed: boolean;
    expectations: { outcome: string; reason: string | null }[];
    transcript: { role: string; text: string; tool?: { name: string; args: Record<string, unknown>; sandboxed: boolean } }[];
  }[];
  diff: { fixed: string[]; broke: string[]; still_failing: string[] } | null;
};

async function evalRun(api: ApiCall, agentId: string, draft: boolean): Promise<EvalRunStatus> {
  const started = await api<{ eval_run: { eval_run_id: string; status: string } }>('evals/run/', {
    body: { agent_id: agentId, draft },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.body.data.eval_run.status).toBe('queued');
  const id = started.body.data.eval_run.eval_run_id;
  for (let deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((done) => setTimeout(done, 100))) {
    const status = await api<EvalRunStatus>('evals/run_status/', { query: { eval_run_id: id } });
    if (status.body.data.eval_run.status === 'completed' || status.body.data.eval_run.status === 'failed') return status.body.data;
  }
  throw new Error(`eval run ${id} did not finish`);
}

const draftPersona = (api: ApiCall, agentId: string, persona: string) => api('agents/draft_update/', { body: { agent_id: agentId, persona } });

describe('evals of an agent against its draft', () => {
  const ctx = usePlatform({ env: { RATE_LIMIT_PER_MINUTE: '100000', MODEL: model.setting } });
  // The suite most tests play: one widget scenario, "Refund time", on the live persona GOOD. Made by the first test
  // that needs it, so each test also passes alone (`-t`).
  let refundScenario: Promise<string> | undefined;
  const refundTime = () => (refundScenario ??= saveRefundScenario());

  async function saveRefundScenario(): Promise<string> {
    expect((await ctx.api('agents/update/', { body: { agent_id: ctx.agentId, persona: GOOD } })).status).toBe(200);
    const visitor = widgetVisitor(localChatUrl(ctx.platform.url, ctx.agentId));
    expect((await visitor.say('How long do refunds take?')).text).toBe('Refunds are paid within 30 days.');

    const saved = await ctx.api<{ scenario: { id: string; door: string; turns: { user: string; expect: unknown[] }[] } }>('evals/scenario_create/', {
      body: { agent_id: ctx.agentId, from_conversation_id: visitor.conversationId },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.data.scenario).toMatchObject({ door: 'widget', turns: [{ user: 'How long do refunds take?', expect: [{ no_action: true }] }] });
    const scenarioId = saved.body.data.scenario.id;

    const edited = await ctx.api('evals/scenario_update/', {
      body: {
        scenario_id: scenarioId,
        name: 'Refund time',
        door: 'widget',
        turns: [{ user: 'How long do refunds take?', expect: [{ answer_contains: '30 days' }, { no_action: true }] }],
      },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    return scenarioId;
  }

  it('saves a scenario from a widget conversation, and the company edits its expectations', async () => {
    const scenarioId = await refundTime();
    const invalid = await ctx.api('evals/scenario_update/', {
      body: { scenario_id: scenarioId, name: 'x', turns: [{ user: 'hi', expect: [{ answer_contains: 'a', cites: 'b' }] }] },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error?.code).toBe('VALIDATION_ERROR');
  });

  it('passes on the live agent, breaks on a draft persona with the diff, and passes again once reverted; publish waits for a passing suite', async () => {
    const scenarioId = await refundTime();
    const live = await evalRun(ctx.api, ctx.agentId, false);
    expect(live.eval_run).toMatchObject({ status: 'completed', passed: 1, failed: 0, pass_rate: 1 });

    expect((await draftPersona(ctx.api, ctx.agentId, BROKEN)).status).toBe(200);
    const broken = await evalRun(ctx.api, ctx.agentId, true);
    expect(broken.eval_run).toMatchObject({ status: 'completed', passed: 0, failed: 1, pass_rate: 0 });
    expect(broken.diff).toEqual({ previous_eval_run_id: live.eval_run.eval_run_id, fixed: [], broke: [scenarioId], still_failing: [] });
    expect(broken.results[0]!.expectations[0]).toEqual(expect.objectContaining({ outcome: 'failed', reason: 'the answer does not contain "30 days"' }));
    expect(broken.results[0]!.transcript.at(-1)).toEqual({ role: 'assistant', text: 'Refunds are paid whenever we feel like it.' });
    // The live agent is untouched by its draft.
    const visitor = widgetVisitor(localChatUrl(ctx.platform.url, ctx.agentId));
    expect((await visitor.say('How long do refunds take?')).text).toBe('Refunds are paid within 30 days.');

    const refused = await ctx.api('agents/draft_publish/', { body: { agent_id: ctx.agentId, require_suite_pass: true } });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.code).toBe('EVAL_SUITE_NOT_PASSED');

    expect((await draftPersona(ctx.api, ctx.agentId, `${GOOD} Be brief.`)).status).toBe(200);
    const unrun = await ctx.api('agents/draft_publish/', { body: { agent_id: ctx.agentId, require_suite_pass: true } });
    expect(unrun.body.error?.code, 'a run of an older draft does not count').toBe('EVAL_SUITE_NOT_PASSED');
    const reverted = await evalRun(ctx.api, ctx.agentId, true);
    expect(reverted.eval_run).toMatchObject({ status: 'completed', passed: 1, failed: 0 });
    expect(reverted.diff).toMatchObject({ previous_eval_run_id: broken.eval_run.eval_run_id, fixed: [scenarioId], broke: [] });

    const published = await ctx.api<{ agent: { persona: string } }>('agents/draft_publish/', { body: { agent_id: ctx.agentId, require_suite_pass: true } });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data.agent.persona).toBe(`${GOOD} Be brief.`);
    expect((await ctx.api('agents/draft_get/', { query: { agent_id: ctx.agentId } })).body.error?.code).toBe('DRAFT_NOT_FOUND');
  });

  it('records an acting tool in the sandbox and performs nothing: the outbox and the records are unchanged', async () => {
    const outbox = async () => (await ctx.api<{ emails: unknown[] }>('email/outbox/')).body.data.emails;
    const contacts = async () => (await ctx.api<{ contacts: unknown[] }>('contacts/list/')).body.data.contacts;
    const [mailBefore, contactsBefore] = [await outbox(), await contacts()];
    const created = await ctx.api<{ scenario: { id: string } }>('evals/scenario_create/', {
      body: {
        agent_id: ctx.agentId,
        name: 'Mails a customer',
        door: 'command',
        turns: [
          { user: 'Please e-mail grace@example.com a hello', expect: [{ tool_called: 'email.send', args: { to: 'grace@example.com' } }, { no_action: true }] },
        ],
      },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const run = await evalRun(ctx.api, ctx.agentId, false);
    const result = run.results.find((candidate) => candidate.scenario_id === created.body.data.scenario.id)!;
    expect(result.expectations.map((expectation) => expectation.outcome)).toEqual(['passed', 'failed']);
    expect(result.expectations[1]!.reason).toBe('the agent acted: email__send');
    expect(result.transcript).toContainEqual({
      role: 'tool',
      text: 'email__send',
      tool: { name: 'email__send', args: expect.objectContaining({ to: 'grace@example.com' }), effect: 'act', sandboxed: true },
    });
    expect(await outbox()).toEqual(mailBefore);
    expect(await contacts()).toEqual(contactsBefore);
    expect((await ctx.api('evals/scenario_delete/', { body: { scenario_id: created.body.data.scenario.id } })).status).toBe(200);
  });

  it('plays an email scenario, each turn a mail, through the e-mail answer: its prompt, no widget marker, nothing mailed', async () => {
    expect((await ctx.api('agents/update/', { body: { agent_id: ctx.agentId, persona: GOOD } })).status).toBe(200);
    const outbox = async () => (await ctx.api<{ emails: unknown[] }>('email/outbox/')).body.data.emails;
    const mailBefore = await outbox();
    const created = await ctx.api<{ scenario: { id: string; door: string } }>('evals/scenario_create/', {
      body: {
        agent_id: ctx.agentId,
        name: 'Refund time, by mail',
        door: 'email',
        turns: [
          {
            user: 'Hello, how long do refunds take?',
            expect: [
              { answer_contains: '30 days' },
              { answer_contains: 'answered by mail' },
              { answer_contains: 'our refund policy' },
              { answer_excludes: '[Page:' },
            ],
          },
          { user: 'Thanks. And for a gift?', expect: [{ answer_contains: '30 days' }] },
        ],
      },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.scenario.door).toBe('email');
    const run = await evalRun(ctx.api, ctx.agentId, false);
    const result = run.results.find((candidate) => candidate.scenario_id === created.body.data.scenario.id)!;
    expect(result.expectations.map((expectation) => [expectation.outcome, expectation.reason])).toEqual([
      ['passed', null],
      ['passed', null],
      ['passed', null],
      ['passed', null],
      ['passed', null],
    ]);
    expect(result.transcript.map((entry) => entry.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(result.transcript[1]).toEqual({ role: 'assistant', text: 'Refunds are paid within 30 days. See our refund policy. (Answered by mail.)' });
    // Nothing was mailed: an eval plays the e-mail answer, never the mail.
    expect(await outbox()).toEqual(mailBefore);
    expect((await ctx.api('evals/scenario_delete/', { body: { scenario_id: created.body.data.scenario.id } })).status).toBe(200);
  });

  it('saves a scenario from a run: its command, the tools it called', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Please e-mail ada@example.com a hello', autonomy: 'read_only' });
    await waitForRun(ctx.api, runId);
    const saved = await ctx.api<{ scenario: { id: string; door: string; turns: unknown[] } }>('evals/scenario_create/', {
      body: { agent_id: ctx.agentId, from_run_id: runId },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.data.scenario).toMatchObject({
      door: 'command',
      turns: [{ user: 'Please e-mail ada@example.com a hello', expect: [{ tool_called: 'email.send' }] }],
    });
    expect((await ctx.api('evals/scenario_delete/', { body: { scenario_id: saved.body.data.scenario.id } })).status).toBe(200);
  });

  it('goes on from the stored results after a crashed attempt, and fails an eval run out of attempts instead of leaving it running', async () => {
    await refundTime();
    // A second scenario, so the suite has one played before the crash and one after it.
    const second = await ctx.api<{ scenario: { id: string } }>('evals/scenario_create/', {
      body: {
        agent_id: ctx.agentId,
        name: 'Refund time, by command',
        door: 'command',
        turns: [{ user: 'How long do refunds take?', expect: [{ answer_contains: '30 days' }] }],
      },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const { deps } = ctx.platform;
    const suite = (
      await ctx.api<{ scenarios: { id: string; door: string }[] }>('evals/scenario_list/', { query: { agent_id: ctx.agentId } })
    ).body.data.scenarios.map((scenario) => scenario.id);
    const stored = {
      workspaceId: ctx.platform.demo.workspaceId,
      agentId: ctx.agentId,
      draft: false,
      status: 'running' as const,
      pendingStatus: 'running' as const,
      scenarioIds: suite,
      passed: 0,
      failed: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      createdAt: new Date().toISOString(),
    };
    // An attempt that died after playing the first scenario: its result is stored, the run still running, quiet since.
    const quietSince = new Date(Date.now() - EVAL_QUIET_MS - 1000).toISOString();
    const crashed = await createEvalRunOrFind(deps, {
      ...stored,
      evalRunId: `evr_${'c'.repeat(20)}`,
      attempts: 1,
      createdAt: quietSince,
      touchedAt: quietSince,
    });
    await putResultOnce(deps, {
      evalRunId: crashed.evalRunId,
      scenarioId: suite[0]!,
      name: 'played before the crash',
      passed: false,
      error: null,
      expectations: [],
      transcript: [],
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    // The sweeper sends its message again (the queue would, but only after the message's long visibility timeout).
    expect(await sweepEvalRuns(deps)).toEqual([crashed.evalRunId]);
    const resumed = await until(
      () => readEvalRun(deps, crashed.evalRunId),
      (run) => run?.status === 'completed',
    );
    expect(resumed?.attempts).toBe(2);
    expect(resumed!.passed + resumed!.failed).toBe(suite.length);
    // The scenario played before the crash is not played again; the others are.
    const status = await ctx.api<EvalRunStatus>('evals/run_status/', { query: { eval_run_id: crashed.evalRunId } });
    const names = new Map(status.body.data.results.map((result) => [result.scenario_id, result.name]));
    expect(suite.length).toBeGreaterThan(1);
    expect(names.get(suite[0]!)).toBe('played before the crash');
    expect(suite.slice(1).map((id) => names.get(id))).not.toContain('played before the crash');
    expect(names.size).toBe(suite.length);

    const exhausted = await createEvalRunOrFind(deps, { ...stored, evalRunId: `evr_${'x'.repeat(20)}`, attempts: MAX_EVAL_ATTEMPTS });
    await deps.queue.send('evals', { evalRunId: exhausted.evalRunId });
    const failed = await until(
      () => readEvalRun(deps, exhausted.evalRunId),
      (run) => run?.status === 'failed',
    );
    expect(failed).toMatchObject({ error: `the eval run could not finish in ${MAX_EVAL_ATTEMPTS} attempts` });
    expect(failed?.pendingStatus).toBeUndefined();
    expect((await ctx.api('evals/scenario_delete/', { body: { scenario_id: second.body.data.scenario.id } })).status).toBe(200);
  });

  it('runs the CI step exactly as docs/evals.md shows it: exit 0 on a passing suite, non-zero with the failures on a broken draft', async () => {
    const page = readFileSync(resolve(import.meta.dirname, '../../../docs/evals.md'), 'utf8');
    const block = /^```sh evals-ci\n([\s\S]*?)^```$/m.exec(page);
    expect(block, 'docs/evals.md has no ```sh evals-ci block').not.toBeNull();
    await refundTime();
    const env = { KEY: ctx.key, BASE: ctx.platform.apiBaseUrl, AGENT: ctx.agentId };
    const cwd = resolve(import.meta.dirname, '../../..');

    const passing = await runDocumentedScript(block![1]!, { ...env, DRAFT: 'false' }, { cwd });
    expect(passing.stdout).toContain('pass rate 100% (1/1)');
    expect(passing.code, passing.stderr).toBe(0);

    expect((await draftPersona(ctx.api, ctx.agentId, BROKEN)).status).toBe(200);
    const failing = await runDocumentedScript(block![1]!, { ...env, DRAFT: 'true' }, { cwd });
    expect(failing.stdout).toContain('pass rate 0% (0/1)');
    expect(failing.stdout).toContain('FAILED Refund time: the answer does not contain "30 days"');
    expect(failing.stdout).toContain('1 broke');
    expect(failing.code).toBe(1);
  });

  it("searches the draft's knowledge sources, not the live agent's", async () => {
    const otherAgent = (await ctx.api<{ agents: { id: string }[] }>('agents/list/')).body.data.agents.find((agent) => agent.id !== ctx.agentId)!.id;
    const source = await createSource(ctx.api, { type: 'files', name: 'Shipping (draft)', agent_ids: [otherAgent] });
    await upload(ctx.api, source.id, 'shipping.md', '# Shipping\n\nZorblax parcels travel for three days.');
    const created = await ctx.api<{ scenario: { id: string } }>('evals/scenario_create/', {
      body: { agent_id: ctx.agentId, name: 'Shipping', turns: [{ user: 'Search: zorblax parcels', expect: [{ answer_contains: 'three days' }] }] },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const shipping = (run: EvalRunStatus) => run.results.find((result) => result.scenario_id === created.body.data.scenario.id)!;
    // The live agent may not search the source: nothing is found.
    expect(shipping(await evalRun(ctx.api, ctx.agentId, false)).passed).toBe(false);
    expect((await ctx.api('agents/draft_update/', { body: { agent_id: ctx.agentId, knowledge_source_ids: [source.id] } })).status).toBe(200);
    expect(shipping(await evalRun(ctx.api, ctx.agentId, true)).passed).toBe(true);
    // Nothing was published: the live agent still may not search it.
    expect(shipping(await evalRun(ctx.api, ctx.agentId, false)).passed).toBe(false);
    await ctx.api('evals/scenario_delete/', { body: { scenario_id: created.body.data.scenario.id } });
  });

  it("leaves the agent's unanswered questions alone: a question an eval plays is no knowledge gap", async () => {
    const question = 'Which planets do you ship to?';
    const created = await ctx.api<{ scenario: { id: string } }>('evals/scenario_create/', {
      body: { agent_id: ctx.agentId, name: 'Unknown', door: 'command', turns: [{ user: question, expect: [{ says_unknown: true }] }] },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await draftPersona(ctx.api, ctx.agentId, "Answer: I don't know.")).status).toBe(200);
    const run = await evalRun(ctx.api, ctx.agentId, true);
    expect(run.results.find((result) => result.scenario_id === created.body.data.scenario.id)?.passed).toBe(true);
    // The same answer to a real command is a knowledge gap: the list records (a check that an empty list could pass).
    expect((await ctx.api('agents/update/', { body: { agent_id: ctx.agentId, persona: "Answer: I don't know." } })).status).toBe(200);
    const asked = 'Which moons do you ship to?';
    await waitForRun(ctx.api, await command(ctx.api, { agent_id: ctx.agentId, instruction: asked }));
    const unanswered = async () =>
      (await ctx.api<{ questions: { text: string }[] }>('knowledge/unanswered_list/', { query: { agent_id: ctx.agentId } })).body.data.questions.map(
        (one) => one.text,
      );
    const listed = await until(unanswered, (texts) => texts.includes(asked));
    expect(listed).not.toContain(question);
  });
});
