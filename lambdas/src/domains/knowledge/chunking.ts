import type { ExtractedDocument } from './content/extract';

/** One passage of a document: a heading with its section (a long section split in parts), with where it sits. */
export interface Chunk {
  /** Its place in the document, from 0. */
  ordinal: number;
  headingPath: string[];
  /** The heading's fragment id in the page (`pricing` for `#pricing`), or null. */
  anchor: string | null;
  text: string;
}

/** About the passage length that ranked best on SciFact as the child of a parent-child index (bench/knowledge). */
export const MAX_CHUNK_CHARS = 1000;

/**
 * Splits `text` at the last paragraph, line, sentence or word break before `max` characters, again and again; a run
 * of characters with no break at all is cut at `max`.
 */
export function splitText(text: string, max = MAX_CHUNK_CHARS): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    const cut = [/\n\s*\n(?![\s\S]*\n\s*\n)/, /\n(?![\s\S]*\n)/, /[.!?。！？]\s(?![\s\S]*[.!?。！？]\s)/, /\s(?![\s\S]*\s)/]
      .map((pattern) => pattern.exec(window))
      .find((match) => match !== null && match.index >= max / 3);
    const at = cut ? cut.index + cut[0].length : max;
    parts.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** The document's passages: each section (a heading and its text) is one, a long one several; empty sections are dropped. */
export function chunkDocument(document: ExtractedDocument, max = MAX_CHUNK_CHARS): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of document.sections) {
    for (const text of splitText(section.text, max)) {
      chunks.push({ ordinal: chunks.length, headingPath: section.headingPath, anchor: section.anchor, text });
    }
  }
  return chunks;
}

/**
 * A chunk as the index reads it: the document's title and the heading path as context before the passage. The title
 * is left out where the first heading already says it (a page's h1 is its title, often with the site's name added to
 * the title): the same words twice in every passage of a page would outweigh what tells its sections apart.
 */
export function chunkContext(title: string, chunk: Pick<Chunk, 'headingPath' | 'text'>): string {
  const [top] = chunk.headingPath;
  const titled = top === undefined || !title.toLowerCase().includes(top.toLowerCase());
  return [titled ? title : '', chunk.headingPath.join(' › '), chunk.text].filter(Boolean).join('\n');
}

/** The whole document as the parent row reads it: its title and every section's text. */
export const documentText = (document: ExtractedDocument): string =>
  [document.title, ...document.sections.map((section) => section.text)].filter(Boolean).join('\n');
