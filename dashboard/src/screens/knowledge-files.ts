import { DOCUMENT_CONTENT_TYPES, KNOWLEDGE_LIMITS } from '@service/shared/knowledge-limits';

// Reading a chosen file in the browser into the body of knowledge/document_upload: text as is, a PDF as base64.

export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** The upload form's `accept`: the extensions and types the platform indexes. */
export const ACCEPTED_FILES = '.md,.markdown,.html,.htm,.txt,.text,.pdf,' + DOCUMENT_CONTENT_TYPES.join(',');

const BY_EXTENSION: Record<string, DocumentContentType> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  txt: 'text/plain',
  text: 'text/plain',
  pdf: 'application/pdf',
};

/** The file's type by its extension, else by what the browser says; null for a type the platform does not index. */
export function contentTypeOf(file: { name: string; type: string }): DocumentContentType | null {
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  if (extension && extension in BY_EXTENSION) return BY_EXTENSION[extension]!;
  return (DOCUMENT_CONTENT_TYPES as readonly string[]).includes(file.type) ? (file.type as DocumentContentType) : null;
}

/** Why the file cannot be sent (said before anything is sent), or null when it can. */
export function uploadProblem(file: { name: string; type: string; size: number }): string | null {
  if (!contentTypeOf(file)) return `${file.name}: only Markdown, HTML, plain text and PDF files can be added.`;
  if (file.size > KNOWLEDGE_LIMITS.maxFileBytes)
    return `${file.name} is ${megabytes(file.size)}; a file may be at most ${megabytes(KNOWLEDGE_LIMITS.maxFileBytes)}.`;
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}

export const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The body of knowledge/document_upload for a file that passed uploadProblem. */
export async function uploadBody(
  sourceId: string,
  file: File,
): Promise<{ source_id: string; name: string; content_type: DocumentContentType; content: string }> {
  const contentType = contentTypeOf(file)!;
  const content = contentType === 'application/pdf' ? await base64(file) : await file.text();
  return { source_id: sourceId, name: file.name, content_type: contentType, content };
}

/** The file's bytes as base64 (a data: URL from FileReader, without its prefix: no byte-by-byte string building). */
function base64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read`));
    reader.readAsDataURL(file);
  });
}
