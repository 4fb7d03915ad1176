// Word handling shared by the offline model's rules: one normalisation so that "E-mail", "e-posta",
// "İletişim" and "contacts__create" all compare the same way in English and Turkish.

/** Lower-cases without the Turkish dotted-I pitfall and joins the hyphenated forms we match on. */
function normalizeText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/İ/g, 'i')
    .toLowerCase()
    .replace(/\be-(mail|posta)/g, 'e$1')
    .replace(/\bto-do/g, 'todo');
}

/** The words of a text (letters and digits), normalised. */
export function wordsOf(text: string): string[] {
  return normalizeText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The words of an identifier such as `contacts__create`, `createEvent` or `ui-action`. */
export function identifierWords(identifier: string): string[] {
  return wordsOf(identifier.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/[_.\-/]+/g, ' '));
}

/**
 * Whether a word of the text stands for a vocabulary entry. Entries of four letters or more also match as a
 * prefix, which covers plurals and Turkish suffixes ("contacts", "kişilere"); shorter entries must match
 * exactly so that "add" does not match "address".
 */
export function wordMatches(word: string, entry: string): boolean {
  return word === entry || (entry.length >= 4 && word.startsWith(entry));
}

export function containsWord(words: readonly string[], entries: readonly string[]): boolean {
  return words.some((word) => entries.some((entry) => wordMatches(word, entry)));
}

/** A name compared loosely: `first_name`, `firstName` and "First name" are the same key. */
export function looseKey(name: string): string {
  return identifierWords(name).join('');
}
