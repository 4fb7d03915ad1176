const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/** Every call sends its language, a process sees few distinct values, and canonicalizing asks ICU: remembered. */
const canonicalByRaw = new Map<string, string>();
const MAX_REMEMBERED = 256;

/** The canonical tag of a raw value, '' when it is unusable. */
function canonicalOf(raw: string): string {
  const first = raw.split(',')[0]?.split(';')[0]?.trim().replace(/_/g, '-');
  if (!first || first.length > 35 || !LANGUAGE_TAG.test(first)) return '';
  try {
    return Intl.getCanonicalLocales(first)[0] ?? '';
  } catch {
    return '';
  }
}

/**
 * Normalizes a conversation language such as `TR`, `pt_br` or `en-US,en;q=0.9` to a canonical BCP 47 tag
 * (`tr`, `pt-BR`, `en-US`). Anything unusable gives `fallback`.
 */
export function normalizeLanguage(raw: string | null | undefined, fallback: string): string {
  if (!raw) return fallback;
  let canonical = canonicalByRaw.get(raw);
  if (canonical === undefined) {
    if (canonicalByRaw.size >= MAX_REMEMBERED) canonicalByRaw.clear();
    canonical = canonicalOf(raw);
    canonicalByRaw.set(raw, canonical);
  }
  return canonical || fallback;
}

/** `pt-BR` -> `pt`. */
export function primaryLanguage(tag: string): string {
  return tag.split('-')[0] ?? tag;
}

export function isLanguageTag(value: string): boolean {
  return normalizeLanguage(value, '') === value;
}
