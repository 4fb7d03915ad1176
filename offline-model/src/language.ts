import { languageDetector, type LanguageDetector } from '@service/shared/detect-language';
import { listedLanguageOf, replyLanguageIn } from '@service/shared/languages';

/** The languages the offline model writes its fixed phrases in (phrases.ts, and the topics of widget-rules.ts). */
export type Language = 'en' | 'tr' | 'de' | 'es';

const WRITTEN: readonly Language[] = ['en', 'tr', 'de', 'es'];

const writtenOf = (tag: string | undefined): Language | undefined => WRITTEN.find((language) => language === (tag && listedLanguageOf(tag)));

/** The language the offline model answers in and, when it cannot write the conversation's, which one that was. */
export interface ReplyLanguage {
  language: Language;
  /** The conversation language it cannot write (its answer is in English and says so). */
  unwritten?: string;
}

/**
 * The language to answer in: the conversation language a system prompt names (the platform detected it from the whole
 * conversation), else the request's own (the platform's detector), else English.
 */
export function replyLanguage(contextTexts: readonly string[], request: string, languages: LanguageDetector): ReplyLanguage {
  const wanted = contextTexts.map(replyLanguageIn).find(Boolean) ?? languages.detectLanguage(request);
  const language = writtenOf(wanted);
  if (language) return { language };
  return wanted ? { language: 'en', unwritten: wanted } : { language: 'en' };
}

/** The language the offline model would answer a text in, given no system prompt. */
export const detectLanguage = async (text: string): Promise<Language> => replyLanguage([], text, await languageDetector()).language;
