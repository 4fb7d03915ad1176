import { describe, expect, it } from 'vitest';
import { noteAnswer, noteRunEnded } from '../../src/domains/insights/record';
import { envelopeTurn } from '../skills/helpers';
import { usePlatform, apiClient, type ApiCall } from '../support/platform';
import { scriptedModel } from '../support/scripted-model';
import { command, waitForRun } from '../support/runs';
import { localChatUrl, WIDGET_ORIGIN, widgetVisitor } from '../support/widget-visitor';
import { createWorkspace } from '../support/workspaces';

// Insights (issue 30, item 3): a visitor's conversations and a run become the measures insights/agent reports per day,
// as docs/insights.md defines them; a retried event counts once; another workspace's data never appears.

type Measures = Record<string, number | null>;
interface Report {
  total: Measures;
  days: (Measures & { date: string })[];
  knowledge_gaps: { id: string; text: string; count: number }[];
  comments: { conversation_id: string; message_id: string; rating: string; comment: string }[];
  pricing: { input_per_million_usd: number; output_per_million_usd: number; platform_per_conversation_usd: number; platform_per_run_usd: number };
}

const QUIET_MS = 30 * 60_000;
// The platform's clock: midday UTC of the day the file runs, running from there, and moved past the quiet period once
// the conversations are over. A report is per day: from midday the move stays within the day at any hour of the night.
const TO_MIDDAY_MS = Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`) - Date.now();
let clockOffsetMs = 0;
const platformNow = () => new Date(Date.now() + TO_MIDDAY_MS + clockOffsetMs);
const today = () => platformNow().toISOString().slice(0, 10);

const insights = async (api: ApiCall, agentId: string, range: { from?: string; to?: string } = {}) =>
  api<Report>('insights/agent/', { query: { agent_id: agentId, from: range.from ?? today(), to: range.to ?? today() } });

const report = async (api: ApiCall, agentId: string) => {
  const answer = await insights(api, agentId);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
};

describe('insights of an agent', () => {
  const model = scriptedModel([
    { text: 'The Partner plan costs €99 a month.', usage: { input: 100, output: 20 } },
    { text: 'Yes, by card only.' },
    { text: 'I do not know.' },
    { text: 'Our office is in Berlin.' },
    // The run: a tool call the skill refuses (not an e-mail address), then the answer and its envelope.
    { toolCalls: [{ toolName: 'contacts__create', input: { name: 'Ada', email: 'not an address' } }] },
    { text: 'I could not add the contact.' },
    envelopeTurn('The contact could not be added.'),
  ]);
  const ctx = usePlatform({ model, env: { RATE_LIMIT_PER_MINUTE: '1000', MODEL_PRICE: '3/15' }, now: platformNow });
  const rate = (visitor: { conversationId: string; visitorId: string }, messageId: string, rating: string, extra: Record<string, unknown> = {}) =>
    fetch(`${ctx.platform.url}/v1/agents/${ctx.agentId}/rating`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: WIDGET_ORIGIN },
      body: JSON.stringify({ conversationId: visitor.conversationId, visitorId: visitor.visitorId, messageId, rating, ...extra }),
    });
  const answerId = (turn: { events: { name: string | undefined; data: Record<string, unknown> }[] }) =>
    String(turn.events.find((event) => event.name === 'done')?.data.messageId);

  it('counts resolved, handed-off and abandoned conversations, unanswered questions, ratings, tool failures, cost and response times', async () => {
    const chatUrl = localChatUrl(ctx.platform.url, ctx.agentId);
    const resolvedByRating = widgetVisitor(chatUrl);
    const upId = answerId(await resolvedByRating.say('How much is the Partner plan?'));
    expect((await rate(resolvedByRating, upId, 'up')).status).toBe(204);
    // Rated again the same way (a retry): still one rating.
    expect((await rate(resolvedByRating, upId, 'up')).status).toBe(204);

    const handedOff = widgetVisitor(chatUrl);
    expect((await handedOff.say('I want to talk to a person', { handoff: true })).handoff).toMatchObject({ handler: 'people' });
    const ownerId = (await ctx.api<{ members: { user_id: string }[] }>('members/list')).body.data.members[0]!.user_id;
    expect((await ctx.api('conversations/assign', { body: { conversation_id: handedOff.conversationId, user_id: ownerId } })).status).toBe(200);
    expect((await ctx.api('conversations/reply', { body: { conversation_id: handedOff.conversationId, text: 'Hello, I am here.' } })).status).toBe(201);

    const ratedDown = widgetVisitor(chatUrl);
    const downId = answerId(await ratedDown.say('Can I pay by invoice?'));
    expect((await rate(ratedDown, downId, 'up')).status).toBe(204);
    // The visitor changes their mind: the new rating replaces the first.
    expect((await rate(ratedDown, downId, 'down', { comment: '  That answers something else.\u0007 ' })).status).toBe(204);

    const unanswered = widgetVisitor(chatUrl);
    await unanswered.say('Do you deliver pianos to Mars?');
    const quietlyResolved = widgetVisitor(chatUrl);
    await quietlyResolved.say('Where is your office?');

    const run = await waitForRun(ctx.api, await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Add Ada as a contact.', autonomy: 'full' }));
    expect(run.status).toBe('completed');

    const during = await report(ctx.api, ctx.agentId);
    expect(during.total).toMatchObject({ conversations: 5, resolved: 1, handed_off: 1, abandoned: 0, open: 3 });

    clockOffsetMs = QUIET_MS + 60_000;
    const after = await report(ctx.api, ctx.agentId);
    const conversationTokens = { input: 100 + 3 * 10, output: 20 + 3 * 5 };
    expect(after.total).toMatchObject({
      conversations: 5,
      resolved: 2,
      handed_off: 1,
      abandoned: 2,
      open: 0,
      answers: 4,
      unanswered: 1,
      ratings_up: 1,
      ratings_down: 1,
      tool_calls: 1,
      tool_failures: 1,
      runs: 1,
      runs_failed: 0,
      input_tokens: conversationTokens.input + run.usage.input_tokens,
      output_tokens: conversationTokens.output + run.usage.output_tokens,
    });
    const modelCost = (input: number, output: number) => (input * 3 + output * 15) / 1e6;
    const { pricing } = after;
    expect(after.total.model_cost_usd).toBeCloseTo(modelCost(after.total.input_tokens!, after.total.output_tokens!), 12);
    expect(after.total.platform_cost_usd).toBeCloseTo(5 * pricing.platform_per_conversation_usd + pricing.platform_per_run_usd, 12);
    expect(after.total.cost_per_conversation_usd).toBeCloseTo(
      modelCost(conversationTokens.input, conversationTokens.output) / 5 + pricing.platform_per_conversation_usd,
      12,
    );
    expect(after.total.cost_per_run_usd).toBeCloseTo(modelCost(run.usage.input_tokens, run.usage.output_tokens) + pricing.platform_per_run_usd, 12);
    expect(after.total.first_response_ms_agent).toEqual(expect.any(Number));
    expect(after.total.first_response_ms_human).toEqual(expect.any(Number));
    expect(after.days).toHaveLength(1);
    expect(after.days[0]).toMatchObject({ date: today(), conversations: 5, resolved: 2 });
    expect(after.comments).toEqual([
      { conversation_id: ratedDown.conversationId, message_id: downId, rating: 'down', comment: 'That answers something else.', at: expect.any(String) },
    ]);
    expect(after.knowledge_gaps).toEqual([expect.objectContaining({ text: 'Do you deliver pianos to Mars?', count: 1 })]);

    // Events written again, as a retry after a crash or a redelivered message would: nothing counts twice.
    const { deps } = ctx.platform;
    const workspaceId = ctx.platform.demo.workspaceId;
    await noteRunEnded(
      deps,
      { workspaceId, agentId: ctx.agentId, runId: run.run_id, createdAt: deps.now().toISOString() },
      {
        status: 'completed',
        endedAt: deps.now().toISOString(),
        inputTokens: run.usage.input_tokens,
        outputTokens: run.usage.output_tokens,
        toolCalls: 1,
        toolFailures: 1,
      },
    );
    await noteAnswer(deps, { workspaceId, agentId: ctx.agentId, conversationId: resolvedByRating.conversationId }, upId, {
      at: deps.now().toISOString(),
      inputTokens: 100,
      outputTokens: 20,
      toolCalls: 0,
      toolFailures: 0,
      unanswered: false,
    });
    expect((await report(ctx.api, ctx.agentId)).total).toEqual(after.total);

    // The visitor's data erased: their comment goes, the counts (which name nobody) stay.
    const erased = await ctx.api('visitors/erase', { body: { visitor_id: ratedDown.visitorId }, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    const afterErasure = await report(ctx.api, ctx.agentId);
    expect(afterErasure.comments).toEqual([]);
    expect(afterErasure.total).toEqual(after.total);
  });

  it('lets a visitor rate only an answer of their own conversation', async () => {
    const visitor = widgetVisitor(localChatUrl(ctx.platform.url, ctx.agentId));
    const stranger = { conversationId: visitor.conversationId, visitorId: crypto.randomUUID() };
    const turn = await visitor.attempt('I want to talk to a person', { handoff: true });
    expect(turn.status).toBe(200);
    const notAnAnswer = 'msg_000001';
    expect(await (await rate(visitor, notAnAnswer, 'up')).json()).toMatchObject({ error: { code: 'NOT_FOUND', field: 'messageId' } });
    expect(await (await rate(stranger, notAnAnswer, 'up')).json()).toMatchObject({ error: { code: 'CONVERSATION_NOT_FOUND' } });
    expect(await (await rate(visitor, notAnAnswer, 'sideways')).json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field: 'rating' } });
    expect(await (await rate(visitor, notAnAnswer, 'up', { comment: 'x'.repeat(1001) })).json()).toMatchObject({
      error: { code: 'VALIDATION_ERROR', field: 'comment' },
    });
  });

  it('refuses a bad range with the field at fault, and shows another workspace nothing of this one', async () => {
    const bad = async (range: { from?: string; to?: string }) => (await insights(ctx.api, ctx.agentId, range)).body.error;
    expect(await bad({ from: '2026-03-02', to: '2026-03-01' })).toEqual({ code: 'VALIDATION_ERROR', field: 'from' });
    // 2026-01-01 to 2026-04-02 is 92 days, the most one request reads.
    expect(await bad({ from: '2026-01-01', to: '2026-04-03' })).toEqual({ code: 'VALIDATION_ERROR', field: 'to' });
    expect(await bad({ from: '2026-02-30', to: '2026-03-01' })).toEqual({ code: 'VALIDATION_ERROR', field: 'from' });
    expect((await insights(ctx.api, ctx.agentId, { from: '2026-01-01', to: '2026-04-02' })).status).toBe(200);

    const other = await createWorkspace(ctx.platform.deps);
    const otherApi = apiClient(ctx.platform.apiBaseUrl, other.apiKey);
    expect((await insights(otherApi, ctx.agentId)).body.error).toMatchObject({ code: 'AGENT_NOT_FOUND' });
    const own = await report(otherApi, other.agentId);
    expect(own.total).toMatchObject({ conversations: 0, runs: 0, ratings_up: 0, ratings_down: 0 });
    expect(own.comments).toEqual([]);
    expect(own.knowledge_gaps).toEqual([]);
  });
});
