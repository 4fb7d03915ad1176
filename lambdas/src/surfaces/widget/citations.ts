// How the widget cites the company's knowledge (spec 1 markers): each passage a knowledge search returns carries the
// marker the model adds to its answer, `[Page:title|/path#anchor]` for a page of the site the visitor is on and
// `[Link:title|https://…]` for any other web address. A passage without a web address (a file, a written answer)
// gets none; the model names its title.

const LABEL_CHARS = 80;

/** A title as a marker label: no characters that end or split a marker, one line, not too long. */
function markerLabel(title: string): string {
  const label = title.replace(/[[\]|\n\r]+/g, ' ').replace(/\s+/g, ' ').trim();
  return (label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label) || 'Source';
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The marker citing a passage for a visitor on `siteOrigin`, or undefined when it has no web address. */
export function citationMarker(passage: { title: string; url: string | null }, siteOrigin: string | undefined, form: 'marker' | 'link' = 'marker'): string | undefined {
  if (!passage.url) return undefined;
  let url: URL;
  try {
    url = new URL(passage.url);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // By e-mail a citation is the plain address (a mail has no markers).
  if (form === 'link') return url.href;
  const label = markerLabel(passage.title);
  // The marker's value may not hold `]`, `|` or a line break; a URL that does is cited without a marker.
  const value = url.origin === siteOrigin ? `${url.pathname}${url.search}${url.hash}` : url.href;
  if (/[\]|\s]/.test(value)) return undefined;
  return url.origin === siteOrigin ? `[Page:${label}|${value}]` : `[Link:${label}|${value}]`;
}

/** A knowledge search's result with each passage's marker added as `cite`, for a visitor on the page at `pageUrl`. */
export function withCitations(result: unknown, pageUrl: string | undefined, form: 'marker' | 'link' = 'marker'): unknown {
  const results = (result as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return result;
  const siteOrigin = originOf(pageUrl);
  return {
    ...(result as object),
    results: results.map((passage: { title?: unknown; url?: unknown } | null) => {
      if (!passage || typeof passage !== 'object') return passage;
      const cite = citationMarker({ title: typeof passage.title === 'string' ? passage.title : '', url: typeof passage.url === 'string' ? passage.url : null }, siteOrigin, form);
      return cite ? { ...passage, cite } : passage;
    }),
  };
}
