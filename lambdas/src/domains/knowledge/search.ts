import { KNOWLEDGE_LIMITS, type KnowledgeSearchResult } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { querySources, type StoredSource } from './source-repository';
import { knowledgeStores } from './stores';

/**
 * The knowledge domain: sources (websites, files, answers), their documents and chunks, the index and its search, the
 * website sync and its schedule, and the questions left unanswered.
 */
/** Whether the agent may search the source: every agent, or one of those the source names. */
export const availableTo = (source: Pick<StoredSource, 'agentIds'>, agentId: string | undefined): boolean =>
  source.agentIds === null || agentId === undefined || source.agentIds.includes(agentId);

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
  const [sources, stores] = await Promise.all([querySources(deps, input.workspaceId), knowledgeStores(deps)]);
  const visible = sources.filter((source) => visibleTo(source, input));
  if (visible.length === 0) return [];
  const vector = stores.embedder ? (await stores.embedder.embed([input.query]))[0] : undefined;
  const hits = await stores.index.search(input.workspaceId, {
    text: input.query,
    ...(vector ? { vector } : {}),
    // Every source visible: no filter (the table holds this workspace's rows alone).
    ...(visible.length < sources.length ? { sourceIds: visible.map((source) => source.id) } : {}),
    limit,
  });
  return hits.map((hit) => ({ document_id: hit.documentId, name: hit.name, url: hit.url, title: hit.title, text: hit.text, score: hit.score }));
}
