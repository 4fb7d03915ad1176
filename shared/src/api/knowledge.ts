import * as z from 'zod';
import type { EndpointContract } from './contract';
import { isoDateTime, text, uuid } from './primitives';
import { DOCUMENT_CONTENT_TYPES, KNOWLEDGE_LANGUAGES, KNOWLEDGE_LIMITS, SOURCE_STATUSES, SOURCE_TYPES, SYNC_SCHEDULES } from '../knowledge-limits';

// The kinds, schedules and limits live in a zod-free module the dashboard imports (@service/shared/knowledge-limits).
export { DOCUMENT_CONTENT_TYPES, KNOWLEDGE_LANGUAGES, KNOWLEDGE_LIMITS, SOURCE_STATUSES, SOURCE_TYPES, SYNC_SCHEDULES };

const SourceId = z
  .string({ error: 'source_id is required' })
  .regex(/^src_[0-9A-Za-z]{1,32}$/, { error: 'source_id is the id knowledge/source_create returned, beginning src_' });
const DocumentId = z
  .string({ error: 'document_id is required' })
  .regex(/^doc_[0-9A-Za-z]{1,64}$/, { error: 'document_id is the id a document was given, beginning doc_' });
const AgentIds = z.array(uuid('agent_ids[]')).max(KNOWLEDGE_LIMITS.maxAgentIds).nullable();
const AbsoluteUrl = z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }).max(2048);

export const KnowledgeSource = z
  .object({
    id: z.string(),
    type: z.enum(SOURCE_TYPES),
    name: z.string(),
    url: z.string().nullable().meta({ description: "A website source's start page or sitemap" }),
    status: z.enum(SOURCE_STATUSES),
    error: z.string().nullable().meta({ description: 'Why the last sync failed (status `failed`)' }),
    documents: z.number().int(),
    chunks: z.number().int(),
    sync: z.enum(SYNC_SCHEDULES),
    language: z.enum(KNOWLEDGE_LANGUAGES),
    agent_ids: AgentIds.meta({ description: 'The agents that may search it; null = every agent of the workspace' }),
    last_synced_at: isoDateTime.nullable(),
    next_sync_at: isoDateTime.nullable(),
    created_at: isoDateTime,
  })
  .meta({ id: 'KnowledgeSource' });

export const KnowledgeDocument = z
  .object({
    id: z.string(),
    source_id: z.string(),
    name: z.string(),
    url: z.string().nullable(),
    title: z.string(),
    content_type: z.string(),
    status: z.enum(['indexed', 'failed']),
    error: z.string().nullable(),
    chunks: z.number().int(),
    bytes: z.number().int(),
    updated_at: isoDateTime,
  })
  .meta({ id: 'KnowledgeDocument' });

export const SourceCreateBody = z
  .object({
    type: z.enum(SOURCE_TYPES),
    name: text(200).optional(),
    url: AbsoluteUrl.optional(),
    agent_ids: AgentIds.optional(),
    sync: z.enum(SYNC_SCHEDULES).optional(),
    language: z.enum(KNOWLEDGE_LANGUAGES).optional(),
  })
  .strict()
  .refine((body) => body.type !== 'website' || body.url !== undefined, { error: 'a website source needs its start page or sitemap as url', path: ['url'] })
  .refine((body) => body.type === 'website' || body.url === undefined, { error: 'only a website source has a url', path: ['url'] });

export const SourceUpdateBody = z
  .object({ source_id: SourceId, name: text(200).optional(), agent_ids: AgentIds.optional(), sync: z.enum(SYNC_SCHEDULES).optional() })
  .strict();

export const SourceIdBody = z.object({ source_id: SourceId }).strict();
export const SourceIdQuery = z.object({ source_id: SourceId });
export const DocumentListQuery = z.object({
  source_id: SourceId,
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(256).optional(),
});
export const DocumentIdBody = z.object({ document_id: DocumentId }).strict();

const UploadId = z.string().regex(/^upl_[0-9A-Za-z]{24}$/, { error: 'upload_id must be one knowledge/document_upload_url answered' });

export const DocumentUploadBody = z
  .object({
    source_id: SourceId,
    name: text(200),
    content_type: z.enum(DOCUMENT_CONTENT_TYPES),
    content: z
      .string()
      .min(1, { error: 'content is empty' })
      .max(Math.ceil((KNOWLEDGE_LIMITS.maxFileBytes * 4) / 3) + 4, { error: `content exceeds ${KNOWLEDGE_LIMITS.maxFileBytes} bytes` })
      .optional(),
    upload_id: UploadId.optional().meta({
      description: 'Instead of `content`: a file PUT to the URL of knowledge/document_upload_url (in AWS), indexed from there',
    }),
  })
  .strict()
  .refine((body) => (body.content === undefined) !== (body.upload_id === undefined), {
    error: 'give the file as content or as upload_id, one of them',
    path: ['content'],
  })
  .meta({ description: 'Text (Markdown, HTML, plain) as is; a PDF as base64; or a larger file uploaded first (upload_id)' });

export const DocumentUploadUrlBody = z
  .object({
    source_id: SourceId,
    bytes: z
      .number()
      .int()
      .min(1)
      .max(KNOWLEDGE_LIMITS.maxPresignedFileBytes, { error: `a file may have at most ${KNOWLEDGE_LIMITS.maxPresignedFileBytes} bytes` }),
    content_type: z.enum(DOCUMENT_CONTENT_TYPES),
  })
  .strict();

const UnansweredId = z
  .string({ error: 'question_id is required' })
  .regex(/^unq_[0-9A-Za-z]{1,40}$/, { error: 'question_id is the id knowledge/unanswered_list returned, beginning unq_' });

export const AnswerCreateBody = z
  .object({
    source_id: SourceId.optional().meta({ description: "An `answers` source; omitted: the workspace's Answers source (made on first use)" }),
    unanswered_id: UnansweredId.optional().meta({ description: 'The unanswered question (knowledge/unanswered_list) this answers: it leaves the list' }),
    question: text(500),
    answer: text(KNOWLEDGE_LIMITS.maxAnswerChars),
    url: AbsoluteUrl.optional(),
  })
  .strict();

export const SearchBody = z
  .object({
    query: text(KNOWLEDGE_LIMITS.maxQueryChars),
    agent_id: uuid('agent_id').optional().meta({ description: 'Search only what this agent may search' }),
    limit: z.number().int().min(1).max(KNOWLEDGE_LIMITS.maxSearchResults).optional(),
  })
  .strict();

export const UnansweredQuestion = z
  .object({
    id: z.string(),
    agent_id: z.string(),
    text: z
      .string()
      .meta({ description: 'The question as a visitor or caller first put it (questions differing only in case, accents, spacing or punctuation are one)' }),
    language: z.string().meta({ description: "The question's language (ISO 639-1), or `und`" }),
    count: z.number().int().meta({ description: 'How many times it was asked and not answered' }),
    first_asked_at: isoDateTime,
    last_asked_at: isoDateTime,
  })
  .meta({ id: 'UnansweredQuestion' });

export const UnansweredListQuery = z.object({
  agent_id: uuid('agent_id').optional(),
  limit: z.coerce.number().int().min(1).max(KNOWLEDGE_LIMITS.maxUnansweredListed).default(50),
});
export const UnansweredDismissBody = z.object({ question_id: UnansweredId }).strict();

/** One passage found by knowledge/search and the agent's `knowledge__search` tool. */
export interface KnowledgeSearchResult {
  document_id: string;
  name: string;
  url: string | null;
  title: string;
  text: string;
  score: number;
}

/** A passage a run's answer rests on (agents/command_status `sources`). */
export interface RunSource {
  document_id: string;
  name: string;
  url: string | null;
  title: string;
  quote: string;
}

export const KnowledgeSearchResultSchema = z
  .object({
    document_id: z.string(),
    name: z.string(),
    url: z.string().nullable().meta({ description: "The page with its heading's anchor; null for a file or an answer without a link" }),
    title: z.string(),
    text: z.string(),
    score: z.number(),
  })
  .meta({ id: 'KnowledgeSearchResult' }) satisfies z.ZodType<KnowledgeSearchResult>;

export const RunSourceSchema = z
  .object({ document_id: z.string(), name: z.string(), url: z.string().nullable(), title: z.string(), quote: z.string() })
  .meta({ id: 'RunSource' }) satisfies z.ZodType<RunSource>;

const contract = <const T extends EndpointContract>(endpoint: T): T => endpoint;
const sourceData = z.object({ source: KnowledgeSource });

export const KNOWLEDGE_ENDPOINTS = {
  knowledgeSourceCreate: contract({
    path: 'knowledge/source_create',
    method: 'POST',
    summary: 'Add a knowledge source (a website by its start page or sitemap, files, or written answers); a website is crawled at once',
    body: SourceCreateBody,
    data: sourceData,
    status: 201,
    idempotent: true,
    access: 'knowledge:manage',
  }),
  knowledgeSourceList: contract({
    path: 'knowledge/source_list',
    method: 'GET',
    summary: 'The knowledge sources of the workspace with their status and counts',
    data: z.object({ sources: z.array(KnowledgeSource) }),
    status: 200,
    access: 'read',
  }),
  knowledgeSourceGet: contract({
    path: 'knowledge/source_get',
    method: 'GET',
    summary: 'One knowledge source (404 NOT_FOUND on source_id otherwise)',
    query: SourceIdQuery,
    data: sourceData,
    status: 200,
    access: 'read',
  }),
  knowledgeSourceUpdate: contract({
    path: 'knowledge/source_update',
    method: 'POST',
    summary: 'Rename a source, change which agents may search it or its sync schedule',
    body: SourceUpdateBody,
    data: sourceData,
    status: 200,
    access: 'knowledge:manage',
  }),
  knowledgeSourceSync: contract({
    path: 'knowledge/source_sync',
    method: 'POST',
    summary:
      'Sync a source now: a website is fetched again conditionally, only changed pages are re-indexed and vanished ones removed (a sync under way is answered as is)',
    body: SourceIdBody,
    data: sourceData,
    status: 202,
    access: 'knowledge:manage',
  }),
  knowledgeSourceDelete: contract({
    path: 'knowledge/source_delete',
    method: 'POST',
    summary: 'Delete a source with its documents, files and index entries',
    body: SourceIdBody,
    data: z.object({ deleted: z.literal(true), source_id: z.string() }),
    status: 200,
    access: 'knowledge:manage',
  }),
  knowledgeDocumentUpload: contract({
    path: 'knowledge/document_upload',
    method: 'POST',
    summary: `Upload a file (Markdown, HTML, plain text as is; PDF as base64; at most ${KNOWLEDGE_LIMITS.maxFileBytes} bytes) into a \`files\` source; the same name replaces the earlier file`,
    body: DocumentUploadBody,
    data: z.object({ document: KnowledgeDocument }),
    status: 201,
    idempotent: true,
    access: 'knowledge:manage',
    maxBodyBytes: KNOWLEDGE_LIMITS.maxUploadBodyBytes,
  }),
  knowledgeDocumentUploadUrl: contract({
    path: 'knowledge/document_upload_url',
    method: 'POST',
    summary: `Where to upload a file too large for knowledge/document_upload's body (up to ${KNOWLEDGE_LIMITS.maxPresignedFileBytes} bytes): a presigned S3 PUT of exactly \`bytes\` bytes with the given headers, valid ${KNOWLEDGE_LIMITS.uploadUrlSeconds / 60} minutes; then knowledge/document_upload with its \`upload_id\` indexes it. Only where files are kept in S3 (the platform in AWS)`,
    body: DocumentUploadUrlBody,
    data: z.object({
      upload_id: z.string(),
      url: z.string(),
      method: z.literal('PUT'),
      headers: z.record(z.string(), z.string()).meta({ description: 'Send exactly these headers with the PUT' }),
      expires_at: isoDateTime,
    }),
    status: 201,
    access: 'knowledge:manage',
  }),
  knowledgeDocumentList: contract({
    path: 'knowledge/document_list',
    method: 'GET',
    summary: 'The documents of a source (pages, files or answers), paged',
    query: DocumentListQuery,
    data: z.object({ documents: z.array(KnowledgeDocument), next_cursor: z.string().nullable() }),
    status: 200,
    access: 'read',
  }),
  knowledgeDocumentDelete: contract({
    path: 'knowledge/document_delete',
    method: 'POST',
    summary: 'Delete one file or answer with its index entries (a page of a website goes when the site drops it)',
    body: DocumentIdBody,
    data: z.object({ deleted: z.literal(true), document_id: z.string() }),
    status: 200,
    access: 'knowledge:manage',
  }),
  knowledgeAnswerCreate: contract({
    path: 'knowledge/answer_create',
    method: 'POST',
    summary: 'Write an answer to a question (with an optional link to cite); searchable at once',
    body: AnswerCreateBody,
    data: z.object({ document: KnowledgeDocument }),
    status: 201,
    idempotent: true,
    access: 'knowledge:manage',
  }),
  knowledgeSearch: contract({
    path: 'knowledge/search',
    method: 'POST',
    summary: 'Search the knowledge as an agent would (debugging and integrations): passages with their title, URL and score, best first',
    body: SearchBody,
    data: z.object({ results: z.array(KnowledgeSearchResultSchema) }),
    status: 200,
    access: 'read',
  }),
  knowledgeUnansweredList: contract({
    path: 'knowledge/unanswered_list',
    method: 'GET',
    summary: `Questions the knowledge could not answer (no relevant passage, or the agent said it does not know), most asked first; each leaves the list when answered (knowledge/answer_create with its unanswered_id or the same question), dismissed, or ${KNOWLEDGE_LIMITS.unansweredRetentionDays} days after it was last asked`,
    query: UnansweredListQuery,
    data: z.object({ questions: z.array(UnansweredQuestion) }),
    status: 200,
    access: 'read',
  }),
  knowledgeUnansweredDismiss: contract({
    path: 'knowledge/unanswered_dismiss',
    method: 'POST',
    summary: 'Remove a question from the unanswered list without answering it (asked again, it comes back)',
    body: UnansweredDismissBody,
    data: z.object({ dismissed: z.literal(true), question_id: z.string() }),
    status: 200,
    access: 'knowledge:manage',
  }),
} as const satisfies Record<string, EndpointContract>;

export type KnowledgeEndpoint = keyof typeof KNOWLEDGE_ENDPOINTS;
