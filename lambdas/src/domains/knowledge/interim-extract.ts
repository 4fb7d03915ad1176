/**
 * INTERIM until the crawl part's `content/extract.ts` (seam 1 of the knowledge split) is merged: the seam's types and
 * a plain-text and Markdown extraction only. Everything imports extraction from here, so swapping in the real module
 * is this one file.
 */
export interface ExtractedSection {
  headingPath: string[];
  anchor: string | null;
  text: string;
}
export interface ExtractedDocument {
  title: string;
  sections: ExtractedSection[];
  links: string[];
}
export type ContentErrorReason = 'too_large' | 'unsupported_type' | 'no_text' | 'malformed';
export class ContentError extends Error {
  constructor(
    readonly reason: ContentErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'ContentError';
  }
}

const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');

function markdownSections(text: string, fallbackTitle: string): ExtractedDocument {
  const sections: ExtractedSection[] = [];
  const path: string[] = [];
  let title = '';
  let current: ExtractedSection = { headingPath: [], anchor: null, text: '' };
  for (const line of text.split(/\r?\n/)) {
    const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) {
      current.text += `${line}\n`;
      continue;
    }
    if (current.text.trim()) sections.push({ ...current, text: current.text.trim() });
    const level = heading[1]!.length;
    const name = heading[2]!;
    if (level === 1 && !title) title = name;
    path.splice(level - 1);
    while (path.length < level - 1) path.push('');
    path[level - 1] = name;
    current = { headingPath: path.filter(Boolean), anchor: slug(name), text: '' };
  }
  if (current.text.trim()) sections.push({ ...current, text: current.text.trim() });
  return { title: title || fallbackTitle, sections, links: [] };
}

export async function extractDocument(input: { body: Uint8Array; contentType: string; url?: string; name?: string }): Promise<ExtractedDocument> {
  const type = input.contentType.split(';')[0]!.trim().toLowerCase();
  if (type !== 'text/plain' && type !== 'text/markdown') throw new ContentError('unsupported_type', `${type} is not extracted yet`);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(input.body);
  const document = type === 'text/markdown' ? markdownSections(text, input.name ?? '') : { title: input.name ?? '', sections: [{ headingPath: [], anchor: null, text: text.trim() }], links: [] };
  if (!document.sections.some((section) => section.text)) throw new ContentError('no_text', 'the document has no text');
  return document;
}
