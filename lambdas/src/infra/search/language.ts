import { languageDetector } from '@service/shared/detect-language';

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
const UNSPACED_SCRIPTS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;

/** More than this share of a text's letters in such scripts, and its words cannot be told apart by spaces. */
const UNSPACED_SHARE = 0.2;

/**
 * How a text is tokenised in the index: n-grams when it is mostly written without spaces (a property of its script,
 * whatever the language), else the language the conversation-language detector tells when the index has a stemmer for
 * it, else neutral, so no language is broken. A query too short to tell ("fiyat") is neutral and searches them all.
 */
export async function indexLanguageOf(text: string): Promise<IndexLanguage> {
  const sample = text.slice(0, 4000);
  const letters = Math.max(1, sample.match(/\p{L}/gu)?.length ?? 0);
  if ((sample.match(UNSPACED_SCRIPTS)?.length ?? 0) / letters > UNSPACED_SHARE) return 'ngram';
  const language = (await languageDetector()).detectLanguage(sample);
  return language === 'en' || language === 'tr' ? language : 'neutral';
}
