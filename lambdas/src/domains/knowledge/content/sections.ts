import GithubSlugger from 'github-slugger';
import { ContentError, CONTENT_LIMITS, type ExtractedSection } from './types';

/** Headings from h1 to h4 open a section; h5 and h6 stay inside their section's text. */
export const SECTION_HEADING_LEVELS = 4;

/**
 * Collects a document's sections as its text is walked in reading order: each heading (h1–h4) closes the section
 * before it and opens one whose heading path is the chain of headings above it. A heading without an id of its own
 * gets the slug a Markdown renderer gives it (GitHub's, as Docusaurus and most generators do), duplicates numbered
 * `-1`, `-2`, so the anchor links to the same place the site's own table of contents does.
 */
export class SectionCollector {
  private readonly sections: ExtractedSection[] = [];
  private readonly path: Array<string | undefined> = [];
  private readonly slugger = new GithubSlugger();
  private anchor: string | null = null;
  private parts: string[] = [];
  private chars = 0;

  heading(level: number, text: string, id: string | null): void {
    this.close();
    const name = collapse(text);
    this.path.splice(level - 1);
    this.path[level - 1] = name || undefined;
    const slug = id ?? (name ? this.slugger.slug(name) : null);
    if (id) this.slugger.slug(id); // an explicit id takes its slug, so a later heading of that text is numbered on
    this.anchor = slug || null;
  }

  text(value: string): void {
    this.chars += value.length;
    if (this.chars > CONTENT_LIMITS.maxTextChars) {
      throw new ContentError('too_large', `the document's text is longer than ${CONTENT_LIMITS.maxTextChars.toLocaleString('en')} characters`);
    }
    this.parts.push(value);
  }

  finish(): ExtractedSection[] {
    this.close();
    return this.sections;
  }

  private close(): void {
    const text = tidy(this.parts.join(''));
    const headingPath = this.path.filter((name): name is string => name !== undefined);
    this.parts = [];
    // A heading with no text before the next heading (a chapter title over its sub-headings) is no section of its own.
    if (!text) return;
    if (this.sections.length >= CONTENT_LIMITS.maxSections) {
      throw new ContentError('too_large', `the document has more than ${CONTENT_LIMITS.maxSections.toLocaleString('en')} sections`);
    }
    this.sections.push({ headingPath, anchor: this.anchor, text });
  }
}

/** Runs of white space as one space (inline text). */
export const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Block text: spaces collapsed on each line, at most one blank line between paragraphs, no edge white space. */
export function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
