import { KNOWLEDGE_LIMITS, type KnowledgeSearchResult } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { querySources, type StoredSource } from './source-repository';
import { knowledgeStores } from './stores';

/** Whether the agent may search the source: every agent, or one of those the source names. */
export const availableTo = (source: Pick<StoredSource, 'agentIds'>, agentId: string | undefined): boolean =>
  source.agentIds === null || agentId === undefined || source.agentIds.includes(agentId);

/**
 * Searches the workspace's knowledge (its own index only) as the agent `agentId` may (the sources made available to
 * it; without an agent, every source): the best passages with their document, title, URL (with the heading's anchor)
 * and score, best first. The agent's `knowledge__search` tool and knowledge/search both call this.
 */
export async function searchKnowledge(deps: Deps, input: { workspaceId: string; agentId?: string; query: string; limit?: number }): Promise<KnowledgeSearchResult[]> {
  const limit = Math.min(input.limit ?? KNOWLEDGE_LIMITS.defaultSearchResults, KNOWLEDGE_LIMITS.maxSearchResults);
  const [sources, stores] = await Promise.all([querySources(deps, input.workspaceId), knowledgeStores(deps)]);
  const visible = sources.filter((source) => availableTo(source, input.agentId));
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
