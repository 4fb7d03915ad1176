import type { eld as Eld } from 'eld/small';
import { listedLanguageOf, normalizeConversationLanguage, type ConversationLanguageCode } from './languages';

// Which language a text is in, with ELD (Efficient Language Detector, docs/dependencies.md says why this one).
// Server-side only: its n-gram tables are 1.6 MB, so the widget and the dashboard never import this module.

let loading: Promise<LanguageDetector> | undefined;

/**
 * The detector, loaded on first use and kept for the process. Loading ELD's tables costs about a second of CPU, so
 * it is never part of a function's cold start: only the first request that needs a language pays it, and a process
 * that never detects one (most Lambda functions) never does.
 */
export function languageDetector(): Promise<LanguageDetector> {
  loading ??= import('eld/small').then(({ eld }) => {
    // Addresses, links and domains say nothing of a message's language ("ali@example.com.tr" reads as Portuguese).
    eld.enableTextCleanup(true);
    return detectorOf(eld);
  });
  return loading;
}

export interface LanguageDetector {
  /**
   * The language of a text (a message, an instruction, a document), or undefined when the text is too short or too
   * mixed to tell ("ok", "Danke!", a product name): the caller then knows better (conversationLanguage).
   */
  detectLanguage(text: string): ConversationLanguageCode | undefined;
  /**
   * The normalized language of a conversation's new message. A message the detector can tell is in its language,
   * unless a hint's language scored about as well (a Ukrainian conversation's short Russian-looking question stays
   * Ukrainian), and a hint in the detected language gives its own tag (`pt-BR` rather than `pt`). A message it cannot
   * tell is in the first usable hint's language. Hints, most telling first: the conversation's previous language, the
   * visitor's browser language, the agent's locale; `en` when none is usable.
   */
  conversationLanguage(text: string, hints: readonly (string | null | undefined)[]): string;
}

/** The detector's code of a listed language: Indonesian text scores as Malay (one macrolanguage; it has no table of its own for Indonesian), Filipino as Tagalog. */
const DETECTED_AS: Partial<Record<ConversationLanguageCode, string>> = { id: 'ms', fil: 'tl' };

/** A hint whose score is this close to the best one wins: the detector cannot tell Russian from Ukrainian in a short question, the conversation can. */
const CLOSE_SCORE_RATIO = 0.97;

/** The detector's time grows with the text; the first characters of a long document tell its language as well. */
const SAMPLE_CHARS = 2_000;

interface Detection {
  best: ConversationLanguageCode;
  reliable: boolean;
  scores: Readonly<Record<string, number>>;
}

function detectorOf(eld: typeof Eld): LanguageDetector {
  const detect = (text: string): Detection | undefined => {
    const result = eld.detect(text.slice(0, SAMPLE_CHARS));
    const best = listedLanguageOf(result.language);
    return best ? { best, reliable: result.isReliable(), scores: result.getScores() } : undefined;
  };
  return {
    detectLanguage(text) {
      const detection = detect(text);
      return detection?.reliable ? detection.best : undefined;
    },
    conversationLanguage(text, hints) {
      const usable = hints.flatMap((hint) => normalizeConversationLanguage(hint) ?? []);
      const detection = detect(text);
      if (!detection?.reliable) return usable[0] ?? 'en';
      const top = detection.scores[detection.best] ?? 0;
      const scoreOf = (tag: string) => {
        const code = listedLanguageOf(tag);
        return code ? (detection.scores[DETECTED_AS[code] ?? code] ?? 0) : 0;
      };
      return usable.find((hint) => scoreOf(hint) >= top * CLOSE_SCORE_RATIO) ?? detection.best;
    },
  };
}
