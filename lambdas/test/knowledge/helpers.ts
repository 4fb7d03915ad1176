import type { KnowledgeSearchResult } from '@service/shared';
import type { ApiCall } from '../support/platform';

export interface Source {
  id: string;
  type: string;
  name: string;
  url: string | null;
  status: string;
  error: string | null;
  documents: number;
  chunks: number;
  last_synced_at: string | null;
  next_sync_at: string | null;
}

export interface Document {
  id: string;
  source_id: string;
  name: string;
  url: string | null;
  title: string;
  status: string;
  error: string | null;
  chunks: number;
  updated_at: string;
}

export type SearchResult = KnowledgeSearchResult;

export async function createSource(api: ApiCall, body: Record<string, unknown>): Promise<Source> {
  const response = await api<{ source: Source }>('knowledge/source_create/', { body });
  if (response.status !== 201) throw new Error(`source_create answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data.source;
}

/** Deletes every source of the workspace (the demo seed's page among them), for a test that needs its own content alone. */
export async function deleteAllSources(api: ApiCall): Promise<void> {
  const listed = await api<{ sources: Source[] }>('knowledge/source_list/');
  for (const source of listed.body.data.sources) {
    const response = await api('knowledge/source_delete/', { body: { source_id: source.id } });
    if (response.status !== 200) throw new Error(`source_delete answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
}

export async function upload(api: ApiCall, sourceId: string, name: string, content: string, contentType = 'text/markdown'): Promise<Document> {
  const response = await api<{ document: Document }>('knowledge/document_upload/', { body: { source_id: sourceId, name, content_type: contentType, content } });
  if (response.status !== 201) throw new Error(`document_upload answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data.document;
}

export async function search(api: ApiCall, query: string, extra: Record<string, unknown> = {}): Promise<SearchResult[]> {
  const response = await api<{ results: SearchResult[] }>('knowledge/search/', { body: { query, ...extra } });
  if (response.status !== 200) throw new Error(`search answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data.results;
}

export async function getSource(api: ApiCall, sourceId: string): Promise<Source> {
  const response = await api<{ source: Source }>('knowledge/source_get/', { query: { source_id: sourceId } });
  if (response.status !== 200) throw new Error(`source_get answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data.source;
}

/** Polls the source until `done` holds (a sync runs on the queue), up to a deadline. */
export async function waitForSource(api: ApiCall, sourceId: string, done: (source: Source) => boolean, timeoutMs = 60_000): Promise<Source> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const source = await getSource(api, sourceId);
    if (done(source)) return source;
    if (Date.now() > deadline) throw new Error(`source ${sourceId} never reached the expected state: ${JSON.stringify(source)}`);
    // Quick looks first, then slower ones, within the key's rate limit (120 a minute by default).
    await new Promise((resolve) => setTimeout(resolve, Date.now() + timeoutMs - deadline < 3_000 ? 100 : 700));
  }
}

export async function allDocuments(api: ApiCall, sourceId: string): Promise<Document[]> {
  const documents: Document[] = [];
  let cursor: string | null = null;
  do {
    const page: { documents: Document[]; next_cursor: string | null } = (
      await api<{ documents: Document[]; next_cursor: string | null }>('knowledge/document_list/', {
        query: { source_id: sourceId, limit: '100', ...(cursor ? { cursor } : {}) },
      })
    ).body.data;
    documents.push(...page.documents);
    cursor = page.next_cursor;
  } while (cursor);
  return documents;
}
