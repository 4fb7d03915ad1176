import { randomBase62 } from '@service/shared';
import type { IndexRow } from '../../infra/search/knowledge-index';
import { indexLanguageOf, type IndexLanguage } from '../../infra/search/language';
import { chunkContext, chunkDocument, documentText } from './chunking';
import type { ExtractedDocument } from './content/extract';
import type { SourceLanguage } from './source-repository';
import type { KnowledgeStores } from '../../infra/search/knowledge-stores';

/** A stable document id from what names it in its source (a page's URL, a file's name): the same page is the same document. */
export const documentIdOf = (sourceId: string, name: string) => `doc_${randomBase62(32, `${sourceId}\n${name}`)}`;

const indexLanguage = async (language: SourceLanguage, text: string): Promise<IndexLanguage> =>
  language === 'auto' ? indexLanguageOf(text) : language === 'other' ? 'neutral' : language;

/** The URL of a passage: the document's, with the heading's anchor. */
const withAnchor = (url: string | null, anchor: string | null) => (url && anchor ? `${url.replace(/#.*$/, '')}#${encodeURIComponent(anchor)}` : url);

export interface IndexedDocument {
  documentId: string;
  sourceId: string;
  name: string;
  url: string | null;
}

/**
 * Puts the document into the workspace's index as its parent row (the whole text) and one row per passage (a heading
 * with its section), replacing whatever the index held for it: the number of passages.
 */
export async function indexDocument(
  stores: KnowledgeStores,
  workspaceId: string,
  language: SourceLanguage,
  meta: IndexedDocument,
  document: ExtractedDocument,
): Promise<number> {
  const chunks = chunkDocument(document);
  const whole = documentText(document);
  const rowLanguage = await indexLanguage(language, whole);
  const title = document.title || meta.name;
  const base = { documentId: meta.documentId, sourceId: meta.sourceId, name: meta.name, title, language: rowLanguage };
  const passages = chunks.map((chunk) => ({
    ...base,
    rowId: `${meta.documentId}#${chunk.ordinal}`,
    kind: 'passage' as const,
    searchText: chunkContext(title, chunk),
    url: withAnchor(meta.url, chunk.anchor),
    text: chunk.text,
  }));
  const vectors = stores.embedder && passages.length > 0 ? await stores.embedder.embed(passages.map((passage) => passage.searchText)) : undefined;
  const first = passages[0];
  const rows: IndexRow[] = first
    ? [
        { ...base, rowId: `${meta.documentId}#doc`, kind: 'parent', searchText: whole, url: first.url, text: first.text },
        ...passages.map((passage, at) => ({ ...passage, ...(vectors ? { vector: vectors[at]! } : {}) })),
      ]
    : [];
  await stores.index.replaceDocument(workspaceId, meta.documentId, rows);
  return passages.length;
}
