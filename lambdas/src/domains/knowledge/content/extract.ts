import { createHash } from 'node:crypto';
import { extractHtml } from './html';
import { extractMarkdown } from './markdown';
import { extractPdf } from './pdf';
import { tidy } from './sections';
import { ContentError, CONTENT_LIMITS, type ExtractedDocument } from './types';

export { ContentError, CONTENT_LIMITS, type ContentErrorReason, type ExtractedDocument, type ExtractedSection } from './types';

export type ContentKind = 'html' | 'markdown' | 'text' | 'pdf';

const KIND_OF_TYPE: Record<string, ContentKind> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'application/pdf': 'pdf',
};
const KIND_OF_EXTENSION: Record<string, ContentKind> = { html: 'html', htm: 'html', md: 'markdown', markdown: 'markdown', txt: 'text', pdf: 'pdf' };
/** Types that say nothing about the content: the file name's extension decides. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

/** What a body is, from its media type, or from its file name where the type is a generic one; null when unsupported. */
export function contentKind(contentType: string, name?: string): ContentKind | null {
  const type = mediaType(contentType);
  if (!GENERIC_TYPES.has(type)) return KIND_OF_TYPE[type] ?? null;
  const extension = /\.([a-z0-9]+)$/i.exec(name ?? '')?.[1]?.toLowerCase();
  return (extension && KIND_OF_EXTENSION[extension]) || null;
}

const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/**
 * A document's text in sections (HTML, Markdown, plain text, PDF). The content is data: it is parsed, never run or
 * rendered, and no instruction written in it is followed by anything here. Refusals are `ContentError`s with a reason
 * the caller shows as the document's error: too_large, unsupported_type, no_text (a page that is all script or
 * images), malformed.
 */
export async function extractDocument(input: { body: Uint8Array; contentType: string; url?: string; name?: string }): Promise<ExtractedDocument> {
  if (input.body.byteLength > CONTENT_LIMITS.maxBytes) {
    throw new ContentError('too_large', `the document is ${megabytes(input.body.byteLength)}, more than the ${megabytes(CONTENT_LIMITS.maxBytes)} allowed`);
  }
  const kind = contentKind(input.contentType, input.name);
  if (!kind)
    throw new ContentError(
      'unsupported_type',
      `${mediaType(input.contentType) || 'a document without a type'} is not supported: HTML, Markdown, plain text and PDF are`,
    );
  const document = await parse(kind, input).catch((error: unknown) => {
    // A parser that recursed past the stack on a pathologically nested document: the document is at fault, not us.
    if (error instanceof RangeError) throw new ContentError('malformed', 'the document is nested too deeply to be read');
    throw error;
  });
  if (!document.sections.some((section) => section.text))
    throw new ContentError('no_text', 'the document has no text to index (only scripts, styles, images or markup)');
  return document;
}

async function parse(kind: ContentKind, input: { body: Uint8Array; contentType: string; url?: string; name?: string }): Promise<ExtractedDocument> {
  if (kind === 'pdf') return extractPdf(input.body, input);
  const text = decode(input.body, input.contentType);
  if (kind === 'html') return extractHtml(text, input);
  if (kind === 'markdown') return extractMarkdown(text, input);
  if (text.length > CONTENT_LIMITS.maxTextChars)
    throw new ContentError('too_large', `the document's text is longer than ${CONTENT_LIMITS.maxTextChars.toLocaleString('en')} characters`);
  return { title: input.name ?? input.url ?? '', sections: [{ headingPath: [], anchor: null, text: tidy(text) }], links: [] };
}

/** Text in the charset its type names (UTF-8 when it names none or one the platform does not know); a BOM wins. */
function decode(body: Uint8Array, contentType: string): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}

/**
 * SHA-256 of a document's text (title, and each section's heading path, anchor and text): a page whose markup changed
 * but whose text did not keeps its hash and is not indexed again.
 */
export const contentHash = (document: ExtractedDocument): string =>
  createHash('sha256')
    .update(JSON.stringify([document.title, document.sections.map((section) => [section.headingPath, section.anchor, section.text])]))
    .digest('hex');

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
