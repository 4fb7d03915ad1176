/**
 * Knowledge (issue 28): the company's own website, files and written answers, indexed per workspace and searched by
 * its agents (the built-in `knowledge` skill) and by integrators (knowledge/search).
 */
export const SOURCE_TYPES = ['website', 'files', 'answers'] as const;
export const SOURCE_STATUSES = ['queued', 'indexing', 'ready', 'failed'] as const;
export const SYNC_SCHEDULES = ['daily', 'weekly', 'off'] as const;
/** Languages with their own stemming and stop words; `auto` picks one from the text, anything else is tokenised language-neutrally. */
export const KNOWLEDGE_LANGUAGES = ['auto', 'en', 'tr', 'other'] as const;
/** Uploadable file types: text as is, PDF as base64. */
export const DOCUMENT_CONTENT_TYPES = ['text/markdown', 'text/html', 'text/plain', 'application/pdf'] as const;

/** The limits a company meets (docs/knowledge.md lists them). */
export const KNOWLEDGE_LIMITS = {
  /** Bytes of one uploaded file (its original; a PDF's base64 is a third longer). */
  maxFileBytes: 4 * 1024 * 1024,
  /** The JSON body of knowledge/document_upload (a 4 MB PDF in base64 plus its fields). */
  maxUploadBodyBytes: 5_800_000,
  /** Bytes of a file uploaded to a presigned URL (knowledge/document_upload_url; in AWS, where files are in S3). */
  maxPresignedFileBytes: 20 * 1024 * 1024,
  /** How long a presigned upload URL is valid. */
  uploadUrlSeconds: 900,
  /** Characters of one written answer. */
  maxAnswerChars: 8000,
  maxQueryChars: 500,
  maxSearchResults: 100,
  defaultSearchResults: 5,
  maxSourcesPerWorkspace: 50,
  maxAgentIds: 100,
  /** Unanswered questions: how many one list answers, how many characters of a question are kept, how long one is kept after it was last asked. */
  maxUnansweredListed: 100,
  maxUnansweredChars: 500,
  unansweredRetentionDays: 90,
} as const;
