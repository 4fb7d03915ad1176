/** The text of one document, in sections that follow its headings: what the index chunks and cites. */
export interface ExtractedSection {
  /** The headings above this text, outermost first (`['Billing', 'Refunds']`); empty before the first heading. */
  headingPath: string[];
  /** The id of the section's heading, for a link straight to it (`…/page#refunds`); null where there is none. */
  anchor: string | null;
  text: string;
}

export interface ExtractedDocument {
  title: string;
  sections: ExtractedSection[];
  /** HTML only: the absolute http(s) URLs the page links to, fragment stripped, each once, in page order. */
  links: string[];
}

export type ContentErrorReason = 'too_large' | 'unsupported_type' | 'no_text' | 'malformed';

/** A document that cannot be read, with a reason code and a message fit for the company that added it. */
export class ContentError extends Error {
  constructor(
    readonly reason: ContentErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'ContentError';
  }
}

/**
 * What one document may weigh. A body is read into memory whole (a PDF cannot be parsed as a stream), so the byte cap
 * is checked before anything is parsed; the text caps bound what one document can put into the index.
 */
export const CONTENT_LIMITS = {
  maxBytes: 20 * 1024 * 1024,
  maxTextChars: 2_000_000,
  maxSections: 5_000,
  maxLinks: 5_000,
  maxPdfPages: 1_000,
} as const;
