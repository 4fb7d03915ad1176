import type { RunSource } from '@service/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { measureAnswers, qualityLines } from '../support/help-center/answer-quality';
import { OFF_TOPIC, PARAPHRASES, startHelpCenter, WRITTEN_ANSWERS, type HelpCenter } from '../support/help-center/help-center';
import { usePlatform } from '../support/platform';
import { command, waitForRun, type RunView } from '../support/runs';
import { createSource, deleteAllSources, search, waitForSource } from './helpers';

// The offline model answers paraphrases (issue 40 item 2): the team's help center crawled from its sitemap, then asked
// through agents/command questions worded otherwise than its pages. Targets: at least 10 of 12 answers carry the page's
// fact and cite the page; 6 of 6 off-topic questions get "I do not know" with no source. And written answers win their
// question (item 3): asked in words that share at most one with the written question, the answer comes from it, and it
// ranks above the crawled pages that merely mention the subject.

type SourcedRun = RunView & { sources: RunSource[] };

let site: HelpCenter;
const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '1000' } });

beforeAll(async () => {
  site = await startHelpCenter();
  await deleteAllSources(ctx.api);
  const source = await createSource(ctx.api, { type: 'website', url: site.sitemapUrl, name: 'Help center' });
  expect(await waitForSource(ctx.api, source.id, (current) => current.status !== 'queued' && current.status !== 'indexing', 180_000)).toMatchObject({
    status: 'ready',
    error: null,
  });
  for (const { question, answer } of WRITTEN_ANSWERS) {
    const written = await ctx.api('knowledge/answer_create/', { body: { question, answer }, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
  }
  return () => site.close();
}, 240_000);

const ask = async (instruction: string) => (await waitForRun(ctx.api, await command(ctx.api, { agent_id: ctx.agentId, instruction }), 60_000)) as SourcedRun;

describe('the offline model answers questions worded otherwise than the pages', () => {
  it('carries the fact of the page and cites it for at least 10 of 12 paraphrases, and says it does not know, with no source, to 6 of 6 off-topic questions', async () => {
    const quality = await measureAnswers(ctx.api, ctx.agentId, (slug) => site.pageUrl(slug), PARAPHRASES, OFF_TOPIC);
    console.log([...qualityLines(quality), ...quality.misses.map((miss) => `missed: ${miss}`)].join('\n'));
    expect(quality.answered, quality.misses.join('\n')).toBeGreaterThanOrEqual(10);
    expect(quality.unknown, quality.misses.join('\n')).toBe(OFF_TOPIC.length);
  }, 300_000);

  it('answers a paraphrase of a written question from its written answer, which the search ranks first', async () => {
    const misses: string[] = [];
    for (const { question, asked, fact } of WRITTEN_ANSWERS) {
      const [first] = await search(ctx.api, asked);
      const run = await ask(asked);
      if (first?.title !== question || !run.result_text?.includes(fact) || run.sources[0]?.title !== question) {
        misses.push(`${asked} → first: ${first?.title}; answer: ${run.result_text} (${run.sources.map((source) => source.title).join(', ') || 'no source'})`);
      }
    }
    console.log(
      `paraphrased written questions answered from their answer, ranked first: ${WRITTEN_ANSWERS.length - misses.length} of ${WRITTEN_ANSWERS.length}${misses.length ? `; missed:\n${misses.join('\n')}` : ''}`,
    );
    expect(misses).toEqual([]);
  }, 120_000);

  it('ranks the written answer above a crawled page that merely mentions the subject', async () => {
    const results = await search(ctx.api, 'Can I call you on the phone for help?');
    // The mobile app's page speaks of the phone (its camera, its storage): the company wrote the answer to be the answer.
    expect(results.some((result) => result.url?.startsWith(site.pageUrl('mobile-app')))).toBe(true);
    expect(results[0]).toMatchObject({ title: WRITTEN_ANSWERS[0]!.question, url: null });
  });
});
