import type { RunSource } from '@service/shared';
import { saysItDoesNotKnow } from '../../knowledge/unanswered';
import type { LinkPolicy } from './link-policy';
import { sourcesOf } from './run-sources';

// Citations the platform checks (issue 40). The model reads each retrieved passage with a number and cites it by that
// number (`[1]`); the platform maps the numbers to the passages and writes each door's citation itself: the widget's
// `[Page:…]`/`[Link:…]` marker, or, in a REST `result_text` and an e-mail, the number kept with a list of the cited
// passages' links under the answer. A number no passage has is dropped, and so is any link the answer carries that
// the link policy refuses (link-policy.ts). The answer's sources are the passages it cited, and none when it says it
// does not know.

/** A run lists at most this many sources. */
const MAX_SOURCES = 20;
const LABEL_CHARS = 80;

export interface NumberedPassage {
  number: number;
  source: RunSource;
}

/** The passages a run or a reply retrieved, numbered in the order the model read them (the same passage keeps its number). */
export interface CitationBook {
  /** A knowledge search's result as the model reads it: each passage with its `number`. */
  numbered(result: unknown): unknown;
  readonly passages: readonly NumberedPassage[];
}

export function citationBook(): CitationBook {
  const passages: NumberedPassage[] = [];
  const numberOf = (source: RunSource): number => {
    const known = passages.find(
      (passage) => passage.source.document_id === source.document_id && passage.source.url === source.url && passage.source.quote === source.quote,
    );
    if (known) return known.number;
    passages.push({ number: passages.length + 1, source });
    return passages.length;
  };
  return {
    passages,
    numbered(result) {
      const results = (result as { results?: unknown } | null)?.results;
      if (!Array.isArray(results)) return result;
      const sources = sourcesOf(result);
      let at = 0;
      return {
        ...(result as object),
        // sourcesOf keeps the passages it can read, in order: the others stay as they were, unnumbered.
        results: results.map((found: Record<string, unknown> | null) =>
          found && typeof found.document_id === 'string' && typeof found.text === 'string' ? { number: numberOf(sources[at++]!), ...found } : found,
        ),
      };
    },
  };
}

/** The addresses of the passages the book holds, read when called (the link policy's passage URLs). */
export const passageUrls = (book: CitationBook) => (): string[] => book.passages.flatMap((passage) => (passage.source.url ? [passage.source.url] : []));

/** How a door shows a citation: the widget's marker (a Page marker for a page of the site the visitor is on), or plain. */
export type CitationDoor = { kind: 'widget'; siteOrigin: string | undefined } | { kind: 'plain' };

/** A link taken out of an answer (recorded in the run's steps and the trace). */
export interface RemovedLink {
  url: string;
}

/** A title as a marker label: no characters that end or split a marker, one line, not too long. */
function markerLabel(title: string): string {
  const label = title
    .replace(/[[\]|\n\r]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label) || 'Source';
}

/** The widget's marker citing a passage for a visitor on `siteOrigin`, or undefined when it has no web address. */
export function citationMarker(passage: { title: string; url: string | null }, siteOrigin: string | undefined): string | undefined {
  if (!passage.url) return undefined;
  let url: URL;
  try {
    url = new URL(passage.url);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const label = markerLabel(passage.title);
  // The marker's value may not hold `]`, `|` or a line break; a URL that does is cited without a marker.
  const value = url.origin === siteOrigin ? `${url.pathname}${url.search}${url.hash}` : url.href;
  if (/[\]|\s]/.test(value)) return undefined;
  return url.origin === siteOrigin ? `[Page:${label}|${value}]` : `[Link:${label}|${value}]`;
}

/**
 * What an answer may link, in one pass: a Page or Link marker, a Markdown link, a citation by number (`[1]`, `[1, 2]`,
 * `[^1]`, with the space before it), a bare web address (its closing punctuation left out).
 */
const ANSWER_PARTS =
  /\[(Page|Link):([^[\]\n]{1,300})\]|\[([^[\]\n]{1,300})\]\(([^()\s]{1,2000})\)|(\s?)\[\^?(\d{1,3}(?:\s*,\s*\d{1,3})*)\]|\b(?:https?:\/\/|www\.)[^\s<>()[\]"'`]+?(?=[.,;:!?)]*(?:[\s<>()[\]"'`]|$))/gi;

/** The longest a streamed answer is held back waiting for an open `[` to close. */
const HOLD_MAX_CHARS = 2_400;

/** Where a streamed answer can be cut so that no citation, marker or link is split: before what may still grow. */
function safeCut(text: string): number {
  // The last word may be the start of a web address.
  let cut = Math.max(text.lastIndexOf(' '), text.lastIndexOf('\n'), text.lastIndexOf('\t')) + 1;
  // Never inside a `[…]` (a citation, a marker, a Markdown link's label), nor right after one that is open or may
  // still become a Markdown link (`[label]` then `(url)`).
  const open = text.lastIndexOf('[', cut - 1);
  if (open >= 0 && cut - open <= HOLD_MAX_CHARS) {
    const close = text.indexOf(']', open);
    if (close === -1 || close >= cut) cut = open;
  }
  const last = text.lastIndexOf('[');
  if (last >= 0 && text.length - last <= HOLD_MAX_CHARS && /^\[[^\]]*(?:\](?:\([^)]*)?)?$/.test(text.slice(last))) cut = Math.min(cut, last);
  // The space before a citation goes with it.
  while (cut > 0 && /\s/.test(text[cut - 1]!)) cut--;
  return cut;
}

export interface AnswerFilter {
  /** A piece of the answer as the model writes it: what may be shown of it now (citations written, links checked). */
  push(delta: string): string;
  /** What is held back, once the model is done or one of its text parts ends (nothing of a link spans two parts). */
  end(): string;
  /** The passages cited so far, in the order first cited. */
  cited(): RunSource[];
  readonly removed: readonly RemovedLink[];
}

/**
 * The answer's text as a door shows it, written as it streams: each valid citation number becomes the door's
 * citation, an invalid one disappears, and a link the policy refuses is taken out (a marker or a Markdown link keeps
 * its label as plain text).
 */
export function answerFilter(book: CitationBook, policy: LinkPolicy, door: CitationDoor): AnswerFilter {
  const cited: NumberedPassage[] = [];
  const removed: RemovedLink[] = [];
  let held = '';
  const refuse = (url: string) => removed.push({ url });
  const cite = (space: string, numbers: string): string =>
    numbers
      .split(',')
      .map((number) => book.passages.find((passage) => passage.number === Number(number.trim())))
      .map((passage) => {
        if (!passage) return '';
        const first = !cited.includes(passage);
        if (first) cited.push(passage);
        if (door.kind === 'plain') return `${space || ' '}[${passage.number}]`;
        const marker = first ? citationMarker(passage.source, door.siteOrigin) : undefined;
        return marker ? ` ${marker}` : '';
      })
      .join('');
  const rewrite = (text: string): string =>
    text.replace(ANSWER_PARTS, (part: string, kind?: string, body?: string, label?: string, href?: string, space?: string, numbers?: string) => {
      if (kind && body) {
        const fields = body.split('|');
        const target = (fields[1] ?? fields[0]!).trim();
        if (policy.allows(target)) return part;
        refuse(target);
        return fields[0]!.trim();
      }
      if (label && href) {
        if (policy.allows(href)) return part;
        refuse(href);
        return label;
      }
      if (numbers !== undefined) return cite(space ?? '', numbers);
      const url = /^www\./i.test(part) ? `https://${part}` : part;
      if (policy.allows(url)) return part;
      refuse(part);
      return '';
    });
  return {
    push(delta) {
      held += delta;
      const cut = safeCut(held);
      const ready = held.slice(0, cut);
      held = held.slice(cut);
      return rewrite(ready);
    },
    end() {
      const rest = rewrite(held);
      held = '';
      return rest;
    },
    cited: () => cited.map((passage) => passage.source),
    removed,
  };
}

/** The plain door's list of the cited passages under the answer: `[1] Title: https://…` (a passage without a link by its title). */
export function sourcesList(book: CitationBook, cited: readonly RunSource[]): string {
  if (cited.length === 0) return '';
  const lines = cited.map((source) => {
    const number = book.passages.find((passage) => passage.source === source)?.number;
    return `[${number}] ${source.title || source.name}${source.url ? `: ${source.url}` : ''}`;
  });
  return `\n\nSources:\n${lines.join('\n')}`;
}

export interface CitedAnswer {
  text: string;
  /** The passages the answer cited, none when it says it does not know. */
  sources: RunSource[];
  removed: RemovedLink[];
}

/** The sources of an answer: what it cited, nothing when it says it does not know, at most MAX_SOURCES. */
export const answerSources = (text: string, cited: readonly RunSource[]): RunSource[] => (saysItDoesNotKnow(text) ? [] : cited.slice(0, MAX_SOURCES));

/**
 * A whole answer as a door shows it (a REST `result_text`, an e-mail, a widget reply written at once): its citations
 * written, its refused links removed, and, for the plain door, the list of what it cited under it.
 */
export function renderCitedAnswer(answer: string, book: CitationBook, policy: LinkPolicy, door: CitationDoor): CitedAnswer {
  const filter = answerFilter(book, policy, door);
  const body = `${filter.push(answer)}${filter.end()}`.trim();
  const sources = answerSources(body, filter.cited());
  return { text: door.kind === 'plain' ? `${body}${sourcesList(book, sources)}` : body, sources, removed: [...filter.removed] };
}
