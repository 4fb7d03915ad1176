import { existsSync } from 'node:fs';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { apiClient, newDemoKey } from '../lambdas/test/support/platform';
import { startPlausibleSite } from '../lambdas/test/support/plausible-site';
import { OFF_TOPIC, type ParaphraseQuestion } from '../lambdas/test/support/help-center/help-center';
import { measureAnswers, qualityLines } from '../lambdas/test/support/help-center/answer-quality';
import { createSource, deleteAllSources, waitForSource } from '../lambdas/test/knowledge/helpers';

/**
 * Answers (issue 40 item 2) on a real company's help center: the Plausible docs (`../shared/corpora/plausible-docs`,
 * read in place, never copied) crawled from their sitemap on loopback, then asked through agents/command, with the
 * offline model, twelve questions written in other words than their pages (each with the fact the answer must carry
 * and the page it must cite) and the tests' six off-topic ones. The same measure `npm test` takes on the team's own
 * help center (lambdas/test/knowledge/paraphrases.test.ts).
 */
const CORPUS = new URL('../../shared/corpora/plausible-docs/', import.meta.url);

const PARAPHRASES: readonly ParaphraseQuestion[] = [
  { question: 'Which payment methods do you take?', fact: 'PayPal', slug: 'billing' },
  { question: 'Do charities get a lower price?', fact: '15%', slug: 'nonprofit-and-education-pricing' },
  { question: 'Will my visitors have to accept a cookie banner?', fact: 'no cookie banner', slug: 'compliance' },
  { question: 'Is there a limit on API calls?', fact: '600 requests', slug: 'stats-api' },
  { question: 'Can I get my numbers by e-mail every week?', fact: 'every Monday', slug: 'email-reports' },
  { question: 'Can I lock a shared dashboard with a password?', fact: 'password', slug: 'shared-links' },
  { question: 'How many countries can I keep out of my stats?', fact: '30 different countries', slug: 'excluding' },
  { question: 'What happens to my stats when I rename my site?', fact: '72 hours', slug: 'change-domain-name' },
  { question: 'How do I switch on login codes from an authenticator app?', fact: '2FA', slug: '2fa' },
  { question: 'I forgot my password, what now?', fact: 'reset link', slug: 'reset-password' },
  { question: 'Can I bring my old Google Analytics data over?', fact: 'import', slug: 'google-analytics-import' },
  { question: 'Can I see who is on my site right now?', fact: '5 minutes', slug: 'realtime-dashboard' },
];

export async function benchAnswers(): Promise<string[]> {
  if (!existsSync(CORPUS)) return ['skipped: ../shared/corpora/plausible-docs is not beside the repository'];
  const key = newDemoKey();
  const [site, platform] = await Promise.all([
    startPlausibleSite(),
    startPlatform({ port: 0, env: { SERVICE_DEMO_API_KEY: key, WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '100000' } }),
  ]);
  try {
    const api = apiClient(platform.apiBaseUrl, key);
    await deleteAllSources(api);
    const source = await createSource(api, { type: 'website', url: site.sitemapUrl, name: 'Plausible docs' });
    const synced = await waitForSource(api, source.id, (current) => current.status !== 'queued' && current.status !== 'indexing', 600_000);
    if (synced.status !== 'ready') throw new Error(`the help center did not sync: ${JSON.stringify(synced)}`);
    const quality = await measureAnswers(api, platform.demo.agentId, (slug) => site.pageUrl(slug), PARAPHRASES, OFF_TOPIC);
    return [`${synced.documents} pages crawled`, ...qualityLines(quality), ...quality.misses.map((miss) => `missed: ${miss.slice(0, 300)}`)];
  } finally {
    await platform.stop();
    await site.close();
  }
}
