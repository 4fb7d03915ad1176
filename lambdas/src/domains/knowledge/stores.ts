import type { Deps } from '../../infra/deps';
import type { KnowledgeStores } from '../../infra/search/knowledge-stores';

/** The index, the file store and the embedder of this platform (opened on first use), or a clear failure where it has none. */
export function knowledgeStores(deps: Deps): Promise<KnowledgeStores> {
  if (!deps.knowledge) throw new Error('This function has no knowledge index (KNOWLEDGE_INDEX_URI and KNOWLEDGE_BLOB_URI unset)');
  return deps.knowledge();
}
