import { normalizeLanguage, primaryLanguage } from '@service/skill-sdk/language';

// The conversation languages of the platform (spec 3: "40 or more"): the languages a conversation can be detected
// in and answered in, and an agent's `locale` may be set to. Not the widget's own interface locales (en, tr: spec 1).
// The list is what the detector (detect-language.ts) tells apart, plus Indonesian, which it reports as Malay.

/** ISO 639-1 code -> English name. */
export const LANGUAGE_NAMES = {
  am: 'Amharic',
  ar: 'Arabic',
  az: 'Azerbaijani',
  be: 'Belarusian',
  bg: 'Bulgarian',
  bn: 'Bengali',
  ca: 'Catalan',
  cs: 'Czech',
  da: 'Danish',
  de: 'German',
  el: 'Greek',
  en: 'English',
  es: 'Spanish',
  et: 'Estonian',
  eu: 'Basque',
  fa: 'Persian',
  fi: 'Finnish',
  fr: 'French',
  gu: 'Gujarati',
  he: 'Hebrew',
  hi: 'Hindi',
  hr: 'Croatian',
  hu: 'Hungarian',
  hy: 'Armenian',
  id: 'Indonesian',
  is: 'Icelandic',
  it: 'Italian',
  ja: 'Japanese',
  ka: 'Georgian',
  kn: 'Kannada',
  ko: 'Korean',
  ku: 'Kurdish',
  lo: 'Lao',
  lt: 'Lithuanian',
  lv: 'Latvian',
  ml: 'Malayalam',
  mr: 'Marathi',
  ms: 'Malay',
  nl: 'Dutch',
  no: 'Norwegian',
  or: 'Odia',
  pa: 'Punjabi',
  pl: 'Polish',
  pt: 'Portuguese',
  ro: 'Romanian',
  ru: 'Russian',
  sk: 'Slovak',
  sl: 'Slovenian',
  sq: 'Albanian',
  sr: 'Serbian',
  sv: 'Swedish',
  ta: 'Tamil',
  te: 'Telugu',
  th: 'Thai',
  fil: 'Filipino',
  tr: 'Turkish',
  uk: 'Ukrainian',
  ur: 'Urdu',
  vi: 'Vietnamese',
  yo: 'Yoruba',
  zh: 'Chinese',
} as const;

export type ConversationLanguageCode = keyof typeof LANGUAGE_NAMES;

export const CONVERSATION_LANGUAGES = Object.keys(LANGUAGE_NAMES) as ConversationLanguageCode[];

/** Primary subtags that name a listed language by another code: Norwegian Bokmål and Nynorsk, Tagalog (the detector's code for Filipino). */
const ALIASES: Readonly<Record<string, ConversationLanguageCode>> = { nb: 'no', nn: 'no', tl: 'fil' };

const isListed = (code: string): code is ConversationLanguageCode => Object.hasOwn(LANGUAGE_NAMES, code);

/** The listed language of a canonical tag (`pt-BR` -> `pt`, `nb-NO` -> `no`), undefined when not listed. */
export function listedLanguageOf(tag: string): ConversationLanguageCode | undefined {
  const primary = primaryLanguage(tag).toLowerCase();
  const code = ALIASES[primary] ?? primary;
  return isListed(code) ? code : undefined;
}

/**
 * A conversation language as the platform forwards it (X-Service-Language, ctx.language): the canonical BCP 47 tag
 * (`DE` -> `de`, `pt_br` -> `pt-BR`, `en-US,en;q=0.9` -> `en-US`, `iw` -> `he`) of a listed language; undefined for
 * anything else.
 */
export function normalizeConversationLanguage(raw: string | null | undefined): string | undefined {
  const tag = normalizeLanguage(raw, '');
  return tag && listedLanguageOf(tag) ? tag : undefined;
}

/** The English name of a conversation language (`pt-BR` -> Portuguese); the tag itself when it is not listed. */
export function languageName(tag: string): string {
  const code = listedLanguageOf(tag);
  return code ? LANGUAGE_NAMES[code] : tag;
}

/**
 * The line of a system prompt that names the conversation language. A real model follows the sentence; the offline
 * model reads the tag back with `replyLanguageIn` (both sides use this one wording).
 */
export function replyLanguageLine(tag: string): string {
  return `Conversation language: ${tag}. Reply in ${languageName(tag)}, whatever language the instructions are in.`;
}

const REPLY_LANGUAGE = /^Conversation language: ([A-Za-z0-9-]{2,35})\./m;

/** The conversation language a system prompt names (replyLanguageLine), undefined when it names none. */
export function replyLanguageIn(text: string): string | undefined {
  return normalizeConversationLanguage(REPLY_LANGUAGE.exec(text)?.[1]);
}
