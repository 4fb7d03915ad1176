import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { RunSource } from '@service/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERAL_KNOWLEDGE_URL, MADE_UP_URL, startMisbehavingModel } from '../support/misbehaving-model';
import { startOtlpReceiver } from '../support/otlp-receiver';
import { usePlatform } from '../support/platform';
import { command, until, waitForRun, type RunView } from '../support/runs';
import { sseMessages } from '../support/sse';
import { deleteAllSources } from './helpers';

// Citations the platform checks (issue 40), at each door, against a model that cites badly: it cites [1] and a [7]
// of two passages, adds an address of its own, repeats an address a passage planted, cites nothing when asked
// "briefly", and answers from general knowledge when the search found nothing. Whatever it writes, the visitor, the
// REST caller and the MCP client see only what was retrieved: the sources it cited, no other link.

const REFUNDS = {
  question: 'What is your refund policy?',
  answer: 'Refunds are paid within 14 days. Claim yours at https://evil.example/claim today.',
  url: 'https://shop.example/refunds',
};
const CASH = {
  question: 'Are refunds paid in cash?',
  answer: 'Refunds go back to the card that paid, never in cash.',
  url: 'https://shop.example/refunds-cash',
};
const PLANTED = 'https://evil.example/claim';
const FOREIGN = [PLANTED, MADE_UP_URL, GENERAL_KNOWLEDGE_URL, 'evil.example', 'made-up.example', 'wikipedia'];
const ORIGIN = 'http://localhost:3000';

const model = await startMisbehavingModel();
const receiver = await startOtlpReceiver();
afterAll(async () => {
  await model.close();
  await receiver.close();
});
const ctx = usePlatform({ env: { MODEL: model.setting, RATE_LIMIT_PER_MINUTE: '1000', WEBHOOK_ALLOW_LOCAL: '1' } });

beforeAll(async () => {
  await deleteAllSources(ctx.api);
  for (const answer of [REFUNDS, CASH]) {
    const written = await ctx.api('knowledge/answer_create/', { body: answer, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
  }
  // Both passages come back for the refund question: the model cites one of them.
  const found = await ctx.api<{ results: { url: string }[] }>('knowledge/search/', { body: { query: REFUNDS.question } });
  expect(found.body.data.results.map((result) => result.url).sort()).toEqual([REFUNDS.url, CASH.url]);
});

const expectNoForeignLink = (text: string) => {
  for (const foreign of FOREIGN) expect(text).not.toContain(foreign);
  expect(text).not.toContain('[7]');
};

describe('each door shows only what was retrieved', () => {
  it('the widget: the cited passage as its marker, once; no other link streamed to the visitor, ever', async () => {
    const reply = async (content: string) => {
      const response = await fetch(`${ctx.platform.url}/v1/agents/${ctx.agentId}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({
          conversationId: crypto.randomUUID(),
          visitorId: crypto.randomUUID(),
          locale: 'en',
          page: { url: `${ORIGIN}/help`, title: 'Help' },
          messages: [{ role: 'user', content }],
        }),
      });
      expect(response.status).toBe(200);
      const events = sseMessages(await response.text());
      expect(events.at(-1)?.event).toBe('done');
      // Every piece as it reached the visitor: no piece may carry a link the whole reply would lose.
      const deltas = events.filter((event) => event.event === 'delta').map((event) => (JSON.parse(event.data) as { text: string }).text);
      for (const delta of deltas) expectNoForeignLink(delta);
      return deltas.join('');
    };
    const cited = await reply(REFUNDS.question);
    expect(cited).toContain('Refunds are paid within 14 days.');
    expect(cited.match(/\[(?:Page|Link):[^\]]*\]/g)).toEqual([`[Link:${REFUNDS.question}|${REFUNDS.url}]`]);
    expectNoForeignLink(cited);
    expect(await reply(`${REFUNDS.question} Briefly.`)).not.toMatch(/\[(?:Page|Link):/);
    const general = await reply('What is the capital of Australia?');
    expect(general).toContain('Canberra');
    expectNoForeignLink(general);
  });

  it('REST agents/command: sources are the cited passage, result_text links it alone, and each removed link is a step and a span', async () => {
    expect((await ctx.api('telemetry/settings_update', { body: { otlp_endpoint: receiver.endpoint } })).status).toBe(200);
    const ask = async (instruction: string) =>
      (await waitForRun(ctx.api, await command(ctx.api, { agent_id: ctx.agentId, instruction }), 30_000)) as RunView & { sources: RunSource[]; run_id: string };
    const run = await ask(REFUNDS.question);
    expect(run.status).toBe('completed');
    expect(run.sources).toEqual([expect.objectContaining({ url: REFUNDS.url, quote: expect.stringContaining('14 days') })]);
    expect(run.output).toMatchObject({ sources: run.sources });
    expect(run.result_text).toMatch(
      /^Refunds are paid within 14 days\. \[1\][\s\S]*\n\nSources:\n\[1\] What is your refund policy\?: https:\/\/shop\.example\/refunds$/,
    );
    expectNoForeignLink(run.result_text!);
    const status = await ctx.api<{ steps: Array<{ type: string; url?: string; text?: string }> }>('agents/command_status/', { query: { run_id: run.run_id } });
    expect(status.body.data.steps.filter((step) => step.type === 'link_removed').map((step) => step.url)).toEqual([MADE_UP_URL, PLANTED]);
    for (const step of status.body.data.steps.filter((step) => step.type === 'text')) expectNoForeignLink(step.text!);
    const spans = await until(
      async () => receiver.spans.filter((found) => found.name === 'filter_links' && found.attributes['platform.run.id'] === run.run_id),
      (found) => found.length > 0,
    );
    expect(spans.map((span) => span.attributes['platform.links.removed'])).toEqual([[MADE_UP_URL, PLANTED]]);

    const brief = await ask(`${REFUNDS.question} Briefly.`);
    expect(brief.sources, brief.result_text ?? '').toEqual([]);
    const general = await ask('What is the capital of Australia?');
    expect(general.sources).toEqual([]);
    expectNoForeignLink(general.result_text!);
  });

  it('MCP ask_agent: the cited passage alone, structured and in the text', async () => {
    const made = await ctx.api<{ secret: string }>('connections/key_create/', { body: { name: 'Citations', scopes: ['agents:read', 'agents:ask'] } });
    const client = new Client({ name: 'citations-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', ctx.platform.url), { authProvider: { token: async () => made.body.data.secret } }));
    try {
      const ask = async (instruction: string) => {
        const asked = await client.callTool({ name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction, wait_seconds: 30 } });
        return {
          run: asked.structuredContent as { status: string; sources: RunSource[]; result_text: string },
          text: (asked.content as { text: string }[])[0]!.text,
        };
      };
      const { run, text } = await ask(REFUNDS.question);
      expect(run.status).toBe('completed');
      expect(run.sources.map((source) => source.url)).toEqual([REFUNDS.url]);
      expect(text).toContain(`[1] ${REFUNDS.question}: ${REFUNDS.url}`);
      expect(text).not.toContain(CASH.url);
      expectNoForeignLink(text);
      const general = await ask('What is the capital of Australia?');
      expect(general.run.sources).toEqual([]);
      expectNoForeignLink(general.text);
    } finally {
      await client.close();
    }
  });
});
