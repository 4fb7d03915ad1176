import { KNOWLEDGE_LIMITS, type KnowledgeSearchResult } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { querySources, type StoredSource } from './source-repository';
import { knowledgeStores } from './stores';
import { indexLanguageOf, type IndexLanguage } from '../../infra/search/language';

/**
 * The knowledge domain: sources (websites, files, answers), their documents and chunks, the index and its search, the
 * website sync and its schedule, and the questions left unanswered.
 */
/** Whether the agent may search the source: every agent, or one of those the source names. */
export const availableTo = (source: Pick<StoredSource, 'agentIds'>, agentId: string | undefined): boolean =>
  source.agentIds === null || agentId === undefined || source.agentIds.includes(agentId);

/**
 * How much a written answer's passage outweighs a crawled page's or a file's: the company wrote it to be the answer, so
 * it ranks above a page that merely mentions the subject (one that ranks within a half of it). The index is asked for
 * a few more results than wanted, so that an answer just below the cut can rise into it.
 */
const WRITTEN_ANSWER_WEIGHT = 1.5;
const EXTRA_CANDIDATES = 5;

/**
 * The results best first by their weighted score, within each group the index ranked apart: it answers the question's
 * own language first, then the other languages, each group scored from its own first place (a score rising again
 * starts a group), and a written answer of another language must not jump ahead of the question's own.
 */
function rankedInGroups<T extends { score: number }>(results: T[], indexScores: number[]): T[] {
  const groups: T[][] = [];
  results.forEach((result, at) => {
    if (at === 0 || indexScores[at]! > indexScores[at - 1]!) groups.push([]);
    groups.at(-1)!.push(result);
  });
  return groups.flatMap((group) => group.sort((a, b) => b.score - a.score));
}

/**
 * English words that ask rather than name (the index's English stop words are few: "can", "I", "you" count there), so
 * that "Can I call you on the phone?" ranks what speaks of the phone, not every text that says "can I".
 */
const ASKING_WORDS = /\b(?:i|you|we|me|my|your|our|us|can|could|may|do|does|did|would|should|will|how|what|which|who|when|where|why|am|have|has)\b/gi;

/** The words of an English question that name its subject (the question as it is when nothing else is left). */
function subjectOf(query: string, language: IndexLanguage): string {
  if (language !== 'en') return query;
  const subject = query.replace(ASKING_WORDS, ' ').replace(/\s+/g, ' ').trim();
  return /\p{L}/u.test(subject) ? subject : query;
}

/** Who searches: an agent as it is (none: every source), or an agent's draft naming its sources (not published yet). */
export type Searcher = { agentId?: string } | { draftSourceIds: readonly string[] };

/** Whether the searcher may search the source; a draft's agent keeps the sources open to every agent. */
const visibleTo = (source: StoredSource, searcher: Searcher): boolean =>
  'draftSourceIds' in searcher ? source.agentIds === null || searcher.draftSourceIds.includes(source.id) : availableTo(source, searcher.agentId);

/**
 * Searches the workspace's knowledge (its own index only) as the agent `agentId` may (the sources made available to
 * it; without an agent, every source): the best passages with their document, title, URL (with the heading's anchor)
 * and score, best first. The agent's `knowledge__search` tool and knowledge/search both call this, and an eval of a
 * draft (domains/evals/) as the draft's sources make it.
 */
export async function searchKnowledge(deps: Deps, input: Searcher & { workspaceId: string; query: string; limit?: number }): Promise<KnowledgeSearchResult[]> {
  const limit = Math.min(input.limit ?? KNOWLEDGE_LIMITS.defaultSearchResults, KNOWLEDGE_LIMITS.maxSearchResults);
  const sourcesRead = querySources(deps, input.workspaceId);
  const [stores, language] = await Promise.all([knowledgeStores(deps), indexLanguageOf(input.query)]);
  const vector = stores.embedder ? (await stores.embedder.embed([input.query]))[0] : undefined;
  const query = {
    text: subjectOf(input.query, language),
    language,
    ...(vector ? { vector } : {}),
    limit: Math.min(limit + EXTRA_CANDIDATES, KNOWLEDGE_LIMITS.maxSearchResults),
  };
  // Searched while the sources are read: every source is visible to most searches, and then this is the answer (the
  // table holds this workspace's rows alone); a searcher that sees fewer searches again, those sources only.
  const overAll = stores.index.search(input.workspaceId, query);
  overAll.catch(() => undefined);
  const sources = await sourcesRead;
  const visible = sources.filter((source) => visibleTo(source, input));
  if (visible.length === 0) return [];
  const hits =
    visible.length < sources.length ? await stores.index.search(input.workspaceId, { ...query, sourceIds: visible.map((source) => source.id) }) : await overAll;
  const answers = new Set(visible.filter((source) => source.type === 'answers').map((source) => source.id));
  const results = hits.map((hit) => ({
    document_id: hit.documentId,
    name: hit.name,
    url: hit.url,
    title: hit.title,
    text: hit.text,
    score: answers.has(hit.sourceId) ? Math.round(hit.score * WRITTEN_ANSWER_WEIGHT * 10_000) / 10_000 : hit.score,
  }));
  return rankedInGroups(
    results,
    hits.map((hit) => hit.score),
  ).slice(0, limit);
}
