import type { RunSource } from '@service/shared';
import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { command, waitForRun, type RunView } from '../support/runs';
import { sseMessages } from '../support/sse';

// The local demo (issue 28): `npm start` seeds the page the widget sits on as the demo workspace's first knowledge
// source, and the demo agent answers from it with the offline model, citing it, or says it does not know.

describe('the demo agent answers from the demo page', () => {
  const ctx = usePlatform({ demoKnowledge: true, env: { RATE_LIMIT_PER_MINUTE: '1000' } });

  /** The widget's reply on the demo page (the visitor's page is the platform's own origin), as the visitor reads it. */
  async function widgetReply(question: string): Promise<string> {
    const response = await fetch(`${ctx.platform.url}/v1/agents/${ctx.agentId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ctx.platform.url },
      body: JSON.stringify({
        conversationId: crypto.randomUUID(),
        visitorId: crypto.randomUUID(),
        locale: 'en',
        page: { url: `${ctx.platform.url}/`, title: 'Demo Company: chat widget demo' },
        messages: [{ role: 'user', content: question }],
      }),
    });
    expect(response.status).toBe(200);
    const events = sseMessages(await response.text());
    expect(events.at(-1)?.event).toBe('done');
    return events
      .filter((event) => event.event === 'delta')
      .map((event) => (JSON.parse(event.data) as { text: string }).text)
      .join('');
  }

  it('lists the demo site as the workspace’s first knowledge source', async () => {
    const { sources } = (await ctx.api<{ sources: { name: string; type: string; documents: number; status: string }[] }>('knowledge/source_list/')).body.data;
    expect(sources[0]).toMatchObject({ name: 'Demo site', documents: 1, status: 'ready' });
  });

  it('answers "How much does the Pro plan cost?" in the widget: no Pro plan, Starter €19 and Partner €99 a month, citing the pricing section', async () => {
    const reply = await widgetReply('How much does the Pro plan cost?');
    expect(reply).toContain('There is no “Pro plan”');
    expect(reply).toContain('The Starter plan costs €19 a month and the Partner plan costs €99 a month.');
    expect(reply).toContain('[Page:');
    expect(reply).toMatch(/\[Page:[^|\]]+\|\/#pricing-title\]/);
  });

  it('says it does not know the opening hours and points to the contact page, never that it is a stand-in', async () => {
    const reply = await widgetReply('What are your opening hours?');
    expect(reply).toMatch(/I do not know/);
    expect(reply).toContain('[Page:Contact|/contact]');
    expect(reply).not.toMatch(/stand-in|deterministic/);
  });

  it('gives the same answer to a REST command, with the pricing section as its source', async () => {
    const run = (await waitForRun(
      ctx.api,
      await command(ctx.api, { agent_id: ctx.agentId, instruction: 'How much does the Pro plan cost?' }),
      30_000,
    )) as RunView & { sources: RunSource[] };
    expect(run.result_text).toContain('The Starter plan costs €19 a month and the Partner plan costs €99 a month.');
    expect(run.sources[0]).toMatchObject({ url: `${ctx.platform.url}/#pricing-title`, quote: expect.stringContaining('€19') });
  });
});
