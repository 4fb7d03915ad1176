/**
 * The languages the index tokenises with their own stemmer and stop words; `neutral` for every other language written
 * with spaces between words (split on whitespace and punctuation, lowercased, nothing language-specific removed); and
 * `ngram` for scripts without spaces between words (Chinese, Japanese, Korean, Thai…), cut into character n-grams.
 */
export const INDEX_LANGUAGES = ['en', 'tr', 'neutral', 'ngram'] as const;
export type IndexLanguage = (typeof INDEX_LANGUAGES)[number];

/** LanceDB's names for the stemmers and stop-word lists (Tantivy's languages). */
export const STEMMER_LANGUAGE = { en: 'English', tr: 'Turkish' } as const;

/** Han, Hiragana, Katakana, Hangul, Thai, Lao, Khmer, Myanmar: scripts written without spaces between words. */
const UNSPACED_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;
const TURKISH_LETTERS = /[ğışĞİŞ]/g;
/** Words frequent in Turkish and rare elsewhere (not `de`, `da`, `ne`: French, Portuguese and Latin names have them). */
const TURKISH_WORDS = new Set(['ve', 'bir', 'bu', 'için', 'ile', 'olan', 'gibi', 'daha', 'çok', 'nasıl', 'veya', 'değil', 'ise', 'kadar', 'sonra', 'nedir']);
const ENGLISH_WORDS = new Set(['the', 'and', 'of', 'to', 'is', 'in', 'for', 'with', 'that', 'on', 'are', 'your', 'you', 'can', 'this', 'how', 'what']);

/**
 * A text's index language from its letters and most common words (a source may also name its language): n-grams for a
 * script without spaces, Turkish by its own letters or words, English by its words over a Latin script, anything else
 * neutral, so no language is broken.
 */
export function detectLanguage(text: string): IndexLanguage {
  const sample = text.slice(0, 4000);
  const letters = Math.max(1, sample.match(/\p{L}/gu)?.length ?? 0);
  if ((sample.match(UNSPACED_SCRIPTS)?.length ?? 0) / letters > 0.2) return 'ngram';
  const words = sample.toLocaleLowerCase('tr').split(/[^\p{L}]+/u).filter(Boolean);
  if (words.length === 0) return 'neutral';
  const share = (set: Set<string>) => words.filter((word) => set.has(word)).length / words.length;
  const latin = (sample.match(/[a-zA-Z]/g)?.length ?? 0) / letters;
  const turkishLetters = (sample.match(TURKISH_LETTERS)?.length ?? 0) / Math.max(1, sample.length);
  if (share(TURKISH_WORDS) > 0.05 || turkishLetters > 0.01) return 'tr';
  if (latin > 0.9 && share(ENGLISH_WORDS) > 0.03) return 'en';
  return 'neutral';
}
