import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Deps } from '../../infra/deps';
import { extractDocument } from '../../domains/knowledge/content/extract';
import { deleteDocument, listDocuments, storeDocument } from '../../domains/knowledge/documents';
import { documentIdOf } from '../../domains/knowledge/indexing';
import { createSource } from '../../domains/knowledge/sources';
import { knowledgeStores } from '../../domains/knowledge/stores';

/** The page the demo widget sits on (served at `/`), the demo workspace's first knowledge source. */
const DEMO_PAGE = fileURLToPath(new URL('./demo/index.html', import.meta.url));
export const DEMO_SITE_SOURCE_ID = 'src_demosite';

/**
 * Seeds, idempotently, the demo site's own page as the demo workspace's first knowledge source, so the demo agents
 * answer from it ("How much does the Pro plan cost?": there is none; Starter €19, Partner €99 a month) and cite it.
 * The page is read from this repository, not fetched: the platform never crawls its own loopback address, which the
 * outbound guard refuses unless WEBHOOK_ALLOW_LOCAL is on. Its address is this start's (`siteUrl`); a page indexed
 * under another start's address is replaced.
 */
export async function seedDemoKnowledge(deps: Deps, workspaceId: string, siteUrl: string): Promise<void> {
  const { source } = await createSource(
    deps,
    workspaceId,
    { type: 'files', name: 'Demo site' },
    { at: deps.now(), seed: DEMO_SITE_SOURCE_ID },
    DEMO_SITE_SOURCE_ID,
  );
  const pageUrl = `${siteUrl}/`;
  const id = documentIdOf(source.id, pageUrl);
  const { documents } = await listDocuments(deps, workspaceId, { source_id: source.id, limit: 100 });
  for (const stale of documents.filter((document) => document.id !== id)) await deleteDocument(deps, workspaceId, stale.id, [source]);
  const body = new Uint8Array(await readFile(DEMO_PAGE));
  const extracted = await extractDocument({ body, contentType: 'text/html', url: pageUrl });
  await storeDocument(
    deps,
    await knowledgeStores(deps),
    source,
    { id, name: 'index.html', url: pageUrl, contentType: 'text/html', bytes: body.byteLength, original: body },
    extracted,
  );
}
