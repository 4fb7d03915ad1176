import { DomainError, KNOWLEDGE_LIMITS, randomBase62, type BodyOf, type DataOf } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { KnowledgeStores } from '../../infra/search/knowledge-stores';
import type { Action } from '../../infra/store/idempotency';
import { ContentError, contentHash, extractDocument, type ExtractedDocument } from './content/extract';
import { deleteDocumentItem, documentPage, getDocumentItem, markDocumentSeen, putDocumentItem, type StoredDocument } from './document-repository';
import { documentIdOf, indexDocument } from './indexing';
import { createSource, requireSource } from './sources';
import { addSourceCounts, type StoredSource } from './source-repository';
import { knowledgeStores } from './stores';
import { resolveUnanswered } from './unanswered';

export type ApiDocument = DataOf<'knowledgeDocumentUpload'>['document'];

export const toApiDocument = (document: StoredDocument): ApiDocument => ({
  id: document.id,
  source_id: document.sourceId,
  name: document.name,
  url: document.url ?? null,
  title: document.title,
  content_type: document.contentType,
  status: document.status,
  error: document.error ?? null,
  chunks: document.chunks,
  bytes: document.bytes,
  updated_at: document.updatedAt,
});

/** Where a document's files live: the original as uploaded or fetched, and its extracted text. */
export const documentBlobPrefix = (workspaceId: string, sourceId: string, documentId?: string) =>
  `${workspaceId}/${sourceId}/${documentId ? `${documentId}/` : ''}`;

/** Counts follow each document written or removed (a sync recounts them from the documents themselves). */
export const adjustCounts = (deps: Deps, source: Pick<StoredSource, 'workspaceId' | 'id'>, documents: number, chunks: number) =>
  documents === 0 && chunks === 0 ? Promise.resolve(undefined) : addSourceCounts(deps, source, documents, chunks);

function decodeContent(contentType: BodyOf<'knowledgeDocumentUpload'>['content_type'], content: string): Uint8Array {
  if (contentType !== 'application/pdf') return new TextEncoder().encode(content);
  const compact = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
    throw new DomainError('VALIDATION_ERROR', 'content of a PDF must be base64', { field: 'content' });
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/** The extractor's refusal as the caller's error, said plainly. */
function contentRefused(error: unknown): never {
  if (!(error instanceof ContentError)) throw error;
  if (error.reason === 'too_large') throw new DomainError('PAYLOAD_TOO_LARGE', error.message, { field: 'content' });
  throw new DomainError('VALIDATION_ERROR', `The file was not indexed: ${error.message}`, { field: 'content' });
}

export interface DocumentInput {
  id: string;
  name: string;
  url: string | null;
  contentType: string;
  bytes: number;
  /** The original, kept beside the text (a file); an answer and a page have none. */
  original?: Uint8Array;
  /** A page of a website: what its next fetch asks conditionally, and the sync that saw it. */
  page?: { etag: string | null; lastModified: string | null; seenSyncId: string };
}

const pageFields = (page: DocumentInput['page']) =>
  page ? { seenSyncId: page.seenSyncId, ...(page.etag ? { etag: page.etag } : {}), ...(page.lastModified ? { lastModified: page.lastModified } : {}) } : {};

/**
 * Indexes a document of a files or answers source and stores it (its original and text in the blob store, then the
 * index, then the record, so a record always describes what is indexed); a document whose text is unchanged is left
 * as it is. Retried after a crash (same Idempotency-Key, same ids), it finishes what the first attempt began.
 */
export async function storeDocument(
  deps: Deps,
  stores: KnowledgeStores,
  source: StoredSource,
  input: DocumentInput,
  extracted: ExtractedDocument,
): Promise<{ document: StoredDocument; changed: boolean }> {
  const previous = await getDocumentItem(deps, source.id, input.id);
  const hash = contentHash(extracted);
  const prefix = documentBlobPrefix(source.workspaceId, source.id, input.id);
  const storeText = () => stores.blobs.put(`${prefix}text.json`, new TextEncoder().encode(JSON.stringify(extracted)), 'application/json');
  if (previous?.status === 'indexed' && previous.contentHash === hash) {
    if (!input.page) return { document: previous, changed: false };
    // Same text, maybe other links (a page added to the site's navigation): a later 304 follows the links stored here.
    await storeText();
    return { document: (await markSeen(deps, previous, input.page)) ?? previous, changed: false };
  }
  await Promise.all([...(input.original ? [stores.blobs.put(`${prefix}original`, input.original, input.contentType)] : []), storeText()]);
  const chunks = await indexDocument(
    stores,
    source.workspaceId,
    source.language,
    { documentId: input.id, sourceId: source.id, name: input.name, url: input.url },
    extracted,
  );
  const document: StoredDocument = {
    sourceId: source.id,
    id: input.id,
    workspaceId: source.workspaceId,
    name: input.name,
    ...(input.url ? { url: input.url } : {}),
    title: extracted.title || input.name,
    contentType: input.contentType,
    status: 'indexed',
    contentHash: hash,
    chunks,
    bytes: input.bytes,
    ...pageFields(input.page),
    updatedAt: deps.now().toISOString(),
  };
  await putDocumentItem(deps, document);
  await adjustCounts(deps, source, previous?.status === 'indexed' ? 0 : 1, chunks - (previous?.status === 'indexed' ? previous.chunks : 0));
  return { document, changed: true };
}

/** A page the sync found unchanged (a 304, or the same text), or could not fetch this time: seen by this sync, with the validators it was served with. */
export const markSeen = (deps: Deps, document: Pick<StoredDocument, 'sourceId' | 'id'>, page: NonNullable<DocumentInput['page']>, error?: string) =>
  markDocumentSeen(deps, document, { ...pageFields(page), seenSyncId: page.seenSyncId, ...(error ? { error } : {}) });

/** A page this sync could not index: kept as a failed document with the reason, out of the index. */
export async function storeFailedPage(
  deps: Deps,
  stores: KnowledgeStores,
  source: StoredSource,
  input: Omit<DocumentInput, 'bytes' | 'contentType'>,
  reason: string,
): Promise<void> {
  const previous = await getDocumentItem(deps, source.id, input.id);
  await stores.index.replaceDocument(source.workspaceId, input.id, []);
  await putDocumentItem(deps, {
    sourceId: source.id,
    id: input.id,
    workspaceId: source.workspaceId,
    name: input.name,
    ...(input.url ? { url: input.url } : {}),
    title: previous?.title ?? input.name,
    contentType: previous?.contentType ?? 'text/html',
    status: 'failed',
    error: reason,
    chunks: 0,
    bytes: 0,
    ...pageFields(input.page),
    updatedAt: deps.now().toISOString(),
  });
  if (previous?.status === 'indexed') await adjustCounts(deps, source, -1, -previous.chunks);
}

/** Where a presigned upload waits for knowledge/document_upload: under its source, so deleting the source removes it too. */
const uploadKey = (workspaceId: string, sourceId: string, uploadId: string) => `${documentBlobPrefix(workspaceId, sourceId)}uploads/${uploadId}`;

/** knowledge/document_upload_url: a presigned PUT for a file too large for the JSON body, where files are kept in S3. */
export async function createUploadUrl(deps: Deps, workspaceId: string, body: BodyOf<'knowledgeDocumentUploadUrl'>) {
  const source = await requireSource(deps, workspaceId, body.source_id, 'files');
  const { blobs } = await knowledgeStores(deps);
  if (!blobs.presignPut) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `Upload URLs exist where files are kept in S3 (the platform in AWS); here, send the file as content (at most ${KNOWLEDGE_LIMITS.maxFileBytes} bytes)`,
      { field: 'bytes' },
    );
  }
  const uploadId = `upl_${randomBase62(24)}`;
  const seconds = KNOWLEDGE_LIMITS.uploadUrlSeconds;
  const { url, headers } = await blobs.presignPut(uploadKey(workspaceId, source.id, uploadId), { contentType: body.content_type, bytes: body.bytes, seconds });
  return { upload_id: uploadId, url, method: 'PUT' as const, headers, expires_at: new Date(deps.now().getTime() + seconds * 1000).toISOString() };
}

/** The file's bytes: the body's content, or the object a presigned upload left (removed once indexed by the caller). */
async function uploadedBytes(deps: Deps, workspaceId: string, body: BodyOf<'knowledgeDocumentUpload'>): Promise<Uint8Array> {
  if (body.upload_id === undefined) {
    const bytes = decodeContent(body.content_type, body.content ?? '');
    if (bytes.byteLength > KNOWLEDGE_LIMITS.maxFileBytes)
      throw new DomainError('PAYLOAD_TOO_LARGE', `The file is ${bytes.byteLength} bytes; the limit is ${KNOWLEDGE_LIMITS.maxFileBytes}`, { field: 'content' });
    return bytes;
  }
  const bytes = await (await knowledgeStores(deps)).blobs.get(uploadKey(workspaceId, body.source_id, body.upload_id));
  if (!bytes)
    throw new DomainError('NOT_FOUND', 'Nothing was uploaded for this upload_id yet (or it was indexed already): PUT the file to its URL first', {
      field: 'upload_id',
    });
  if (bytes.byteLength > KNOWLEDGE_LIMITS.maxPresignedFileBytes)
    throw new DomainError('PAYLOAD_TOO_LARGE', `The file is ${bytes.byteLength} bytes; the limit is ${KNOWLEDGE_LIMITS.maxPresignedFileBytes}`, {
      field: 'upload_id',
    });
  return bytes;
}

/** knowledge/document_upload: a file into a `files` source (in the body, or uploaded first); the same name replaces the earlier file. */
export async function uploadDocument(deps: Deps, workspaceId: string, body: BodyOf<'knowledgeDocumentUpload'>): Promise<StoredDocument> {
  const source = await requireSource(deps, workspaceId, body.source_id, 'files');
  const bytes = await uploadedBytes(deps, workspaceId, body);
  const extracted = await extractDocument({ body: bytes, contentType: body.content_type, name: body.name }).catch(contentRefused);
  const input = {
    id: documentIdOf(source.id, body.name),
    name: body.name,
    url: null,
    contentType: body.content_type,
    bytes: bytes.byteLength,
    original: bytes,
  };
  const stores = await knowledgeStores(deps);
  const { document } = await storeDocument(deps, stores, source, input, extracted);
  // Kept as the document's original now; a crash before this leaves the upload to be indexed again by a retry.
  if (body.upload_id !== undefined) await stores.blobs.deletePrefix(uploadKey(workspaceId, source.id, body.upload_id));
  return document;
}

/** The workspace's own Answers source, made on first use under a fixed id (so two first answers make one source). */
async function answersSource(deps: Deps, workspaceId: string, sourceId: string | undefined, action: Action): Promise<StoredSource> {
  if (sourceId) return requireSource(deps, workspaceId, sourceId, 'answers');
  return (await createSource(deps, workspaceId, { type: 'answers', name: 'Answers' }, action, 'src_answers')).source;
}

/** knowledge/answer_create: a question and the company's answer, searchable at once, cited with its link if it has one. */
export async function createAnswer(deps: Deps, workspaceId: string, body: BodyOf<'knowledgeAnswerCreate'>, action: Action): Promise<StoredDocument> {
  const source = await answersSource(deps, workspaceId, body.source_id, action);
  const extracted: ExtractedDocument = { title: body.question, sections: [{ headingPath: [], anchor: null, text: body.answer }], links: [] };
  const input = {
    id: `doc_${randomBase62(24, action.seed)}`,
    name: body.question,
    url: body.url ?? null,
    contentType: 'text/plain',
    bytes: Buffer.byteLength(body.answer),
  };
  const { document } = await storeDocument(deps, await knowledgeStores(deps), source, input, extracted);
  // Answered now: the question leaves the unanswered list (after the answer is stored, so a failure leaves it listed).
  await resolveUnanswered(deps, workspaceId, body.question, body.unanswered_id);
  return document;
}

/** Removes a document everywhere: its index rows, its files, then its record (last, so a retry finds what is left). */
export async function removeDocument(deps: Deps, stores: KnowledgeStores, document: StoredDocument): Promise<void> {
  await stores.index.replaceDocument(document.workspaceId, document.id, []);
  await stores.blobs.deletePrefix(documentBlobPrefix(document.workspaceId, document.sourceId, document.id));
  if ((await deleteDocumentItem(deps, document)) && document.status === 'indexed') {
    await adjustCounts(deps, { workspaceId: document.workspaceId, id: document.sourceId }, -1, -document.chunks);
  }
}

/** The document id names its source only through the record, so it is looked up among the workspace's file and answer sources. */
export async function deleteDocument(deps: Deps, workspaceId: string, documentId: string, sources: StoredSource[]): Promise<void> {
  const candidates = sources.filter((source) => source.type !== 'website');
  const found = (await Promise.all(candidates.map((source) => getDocumentItem(deps, source.id, documentId)))).find((document) => document !== undefined);
  if (!found) {
    throw new DomainError('NOT_FOUND', `No file or answer ${documentId} in this workspace (a website's pages leave when the site drops them)`, {
      field: 'document_id',
    });
  }
  await removeDocument(deps, await knowledgeStores(deps), found);
}

const encodeCursor = (id: string) => Buffer.from(id).toString('base64url');
function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^doc_[0-9A-Za-z]{1,64}$/.test(id)) throw new DomainError('VALIDATION_ERROR', 'cursor is not one this list returned', { field: 'cursor' });
  return id;
}

export async function listDocuments(deps: Deps, workspaceId: string, query: { source_id: string; limit: number; cursor?: string }) {
  await requireSource(deps, workspaceId, query.source_id);
  const page = await documentPage(deps, query.source_id, query.limit, query.cursor ? decodeCursor(query.cursor) : undefined);
  return { documents: page.documents.map(toApiDocument), next_cursor: page.lastId ? encodeCursor(page.lastId) : null };
}
