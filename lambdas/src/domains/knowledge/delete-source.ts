import type { Deps } from '../../infra/deps';
import { deleteFrontierPage, frontierPages, syncKeyOf } from './crawl-repository';
import { allDocuments, deleteDocumentItem } from './document-repository';
import { documentBlobPrefix } from './documents';
import { deleteSourceItem, type StoredSource } from './source-repository';
import { requireSource } from './sources';
import { knowledgeStores } from './stores';

/**
 * Deletes a source everywhere: its index rows, its files, its documents, its crawl frontier, then the source itself
 * (last, so a retry after a crash still finds it and finishes). A page being crawled meanwhile sees the source gone
 * and removes what it wrote (website-sync.ts).
 */
export async function deleteSource(deps: Deps, workspaceId: string, sourceId: string): Promise<void> {
  const source = await requireSource(deps, workspaceId, sourceId);
  const stores = await knowledgeStores(deps);
  await stores.index.deleteSource(workspaceId, sourceId);
  await stores.blobs.deletePrefix(documentBlobPrefix(workspaceId, sourceId));
  await Promise.all((await allDocuments(deps, sourceId)).map((document) => deleteDocumentItem(deps, document)));
  await deleteFrontier(deps, source);
  await deleteSourceItem(deps, source);
}

/** The frontier of the source's last sync (earlier syncs' frontiers are removed when they end). */
async function deleteFrontier(deps: Deps, source: StoredSource): Promise<void> {
  if (!source.syncId) return;
  await Promise.all((await frontierPages(deps, syncKeyOf(source.id, source.syncId))).map((page) => deleteFrontierPage(deps, page)));
}
