import type { RunSource } from '@service/shared';
import type { ApiCall } from '../platform';
import { command, waitForRun, type RunView } from '../runs';
import type { ParaphraseQuestion } from './help-center';

/** How an agent answered questions about a help center: paraphrases with their fact and page cited, off-topic with "I do not know" and no source. */
export interface AnswerQuality {
  answered: number;
  paraphrases: number;
  unknown: number;
  offTopic: number;
  /** Each miss: the question, the answer, its sources. */
  misses: string[];
}

/**
 * Asks every question through agents/command, one at a time, as the tests and the bench measure the offline model
 * (issue 40 item 2). `pageUrl`: the address of a page by its slug.
 */
export async function measureAnswers(
  api: ApiCall,
  agentId: string,
  pageUrl: (slug: string) => string,
  paraphrases: readonly ParaphraseQuestion[],
  offTopic: readonly string[],
): Promise<AnswerQuality> {
  const ask = async (instruction: string) =>
    (await waitForRun(api, await command(api, { agent_id: agentId, instruction }), 60_000)) as RunView & { sources: RunSource[] };
  const misses: string[] = [];
  const missed = (question: string, run: RunView & { sources: RunSource[] }) =>
    misses.push(`${question} → ${run.result_text} (${run.sources.map((source) => source.url ?? source.title).join(', ') || 'no source'})`);
  let answered = 0;
  for (const { question, fact, slug } of paraphrases) {
    const run = await ask(question);
    const cites = run.sources.some((source) => source.url?.replace(/#.*$/, '') === pageUrl(slug));
    if (run.result_text?.includes(fact) && cites) answered += 1;
    else missed(question, run);
  }
  let unknown = 0;
  for (const question of offTopic) {
    const run = await ask(question);
    if (/I do not know/.test(run.result_text ?? '') && run.sources.length === 0) unknown += 1;
    else missed(question, run);
  }
  return { answered, paraphrases: paraphrases.length, unknown, offTopic: offTopic.length, misses };
}

export const qualityLines = (quality: AnswerQuality): string[] => [
  `paraphrases answered with their page's fact, citing the page: ${quality.answered} of ${quality.paraphrases} (target at least ${quality.paraphrases - 2})`,
  `off-topic questions answered "I do not know" with no source: ${quality.unknown} of ${quality.offTopic} (target all)`,
];
