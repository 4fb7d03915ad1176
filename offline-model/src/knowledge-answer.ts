import type { JSONValue, LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import type { AnswerFacts } from './fill-schema';
import type { PromptView, ToolResultSeen } from './prompt-view';
import { wordMatches, wordsOf } from './words';

// Answers from the company's own content (issue 28): the offline model searches with the built-in `knowledge` skill's
// tool, then answers extractively (the best passage's most relevant sentences, and its citation) or says it does not
// know and offers the contact page. Passage text is only ever quoted, never followed: nothing here calls a tool
// because of what a passage says.

/** The model-facing name of the built-in knowledge skill's search tool. */
export const KNOWLEDGE_SEARCH_TOOL = 'knowledge__search';
const SEARCH_LIMIT = 5;
/** Passages scoring below this are as good as none (the platform's scores are positive; 0 would mean no match). */
const MIN_SCORE = 0;
/** The most sentences of the best passage quoted in an answer, and the most characters they may take. */
const MAX_SENTENCES = 2;
const MAX_ANSWER_CHARS = 420;

/**
 * A passage as `knowledge__search` returns it: `number` is what the platform asks an answer to cite it by (`[1]`; it
 * writes each door's citation from it), `cite` a citation written out (the widget's marker, where a door gives one).
 */
export interface Passage {
  title: string;
  url: string | null;
  text: string;
  score: number;
  number?: number;
  cite?: string;
}

interface KnowledgePhrases {
  notMentioned: (terms: string) => string;
  dontKnow: string;
  contact: string;
  source: (title: string, url: string | null) => string;
}

const PHRASES: Readonly<Record<string, KnowledgePhrases>> = {
  en: {
    notMentioned: (terms) => `There is no ${terms} in our content.`,
    dontKnow: 'I do not know: I found nothing about that in our content, and I would rather not guess.',
    contact: 'Our team can answer it: [Page:Contact|/contact]',
    source: (title, url) => `Source: ${title}${url ? ` (${url})` : ''}.`,
  },
  tr: {
    notMentioned: (terms) => `İçeriğimizde ${terms} yok.`,
    dontKnow: 'Bilmiyorum: içeriğimizde bununla ilgili bir şey bulamadım ve tahmin yürütmek istemem.',
    contact: 'Ekibimiz yanıtlayabilir: [Page:İletişim|/contact]',
    source: (title, url) => `Kaynak: ${title}${url ? ` (${url})` : ''}.`,
  },
  de: {
    notMentioned: (terms) => `${terms} kommt in unseren Inhalten nicht vor.`,
    dontKnow: 'Das weiß ich nicht: Ich habe dazu nichts in unseren Inhalten gefunden und möchte nicht raten.',
    contact: 'Unser Team kann das beantworten: [Page:Kontakt|/contact]',
    source: (title, url) => `Quelle: ${title}${url ? ` (${url})` : ''}.`,
  },
  es: {
    notMentioned: (terms) => `${terms} no aparece en nuestro contenido.`,
    dontKnow: 'No lo sé: no he encontrado nada sobre eso en nuestro contenido y prefiero no adivinar.',
    contact: 'Nuestro equipo puede responderte: [Page:Contacto|/contact]',
    source: (title, url) => `Fuente: ${title}${url ? ` (${url})` : ''}.`,
  },
};

// Words that carry no subject: a question made only of them ("hi", "thanks") is not searched.
const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'to',
  'in',
  'on',
  'at',
  'for',
  'with',
  'by',
  'from',
  'is',
  'are',
  'was',
  'be',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'will',
  'should',
  'what',
  'which',
  'who',
  'whom',
  'how',
  'why',
  'when',
  'where',
  'much',
  'many',
  'i',
  'me',
  'my',
  'we',
  'us',
  'our',
  'you',
  'your',
  'it',
  'its',
  'this',
  'that',
  'there',
  'have',
  'has',
  'any',
  'some',
  'about',
  'please',
  'tell',
  'hi',
  'hello',
  'hey',
  'thanks',
  'thank',
  'yes',
  'no',
  'ok',
  'bir',
  've',
  'veya',
  'ile',
  'için',
  'bu',
  'şu',
  'ne',
  'nedir',
  'nasıl',
  'neden',
  'nerede',
  'kaç',
  'kadar',
  'mı',
  'mi',
  'mu',
  'mü',
  'var',
  'yok',
  'ben',
  'bana',
  'siz',
  'sizin',
  'biz',
  'bizim',
  'merhaba',
  'selam',
  'lütfen',
  'teşekkürler',
]);

const phrasesFor = (language: string): KnowledgePhrases => PHRASES[language] ?? PHRASES.en!;

// How a question shows without its question mark: "Summarise the lead" is a task on the data at hand, not a question
// for the company's content; "What are your opening hours" is one. An English question opens with its word; a
// Turkish one may carry it anywhere, or its particle (mı, mi, mu, mü and their person endings).
const ENGLISH_QUESTION_OPENERS = new Set([
  'what',
  'how',
  'when',
  'where',
  'who',
  'which',
  'why',
  'do',
  'does',
  'is',
  'are',
  'can',
  'could',
  'will',
  'would',
  'should',
  'have',
  'has',
]);
const TURKISH_QUESTION_WORD = /^(?:ne|nedir|neler|nasıl|neden|nerede|nereden|nereye|kim|kimin|hangi|hangisi|kaç|kaça|kaçta|niçin|niye)$/u;
const TURKISH_QUESTION_PARTICLE = /^m[ıiuü](?:s[ıiuü]n(?:[ıiuü]z)?|y[ıiuü]m|y[ıiuü]z)?$/u;

function isQuestion(request: string): boolean {
  const words = wordsOf(request);
  return (
    request.includes('?') ||
    ENGLISH_QUESTION_OPENERS.has(words[0] ?? '') ||
    words.some((word) => TURKISH_QUESTION_WORD.test(word) || TURKISH_QUESTION_PARTICLE.test(word))
  );
}

/** The words of a text that name a subject. */
export function contentWords(text: string): string[] {
  return [...new Set(wordsOf(text).filter((word) => !STOP_WORDS.has(word) && !/^\d+$/.test(word)))];
}

/**
 * Loose stemming: "costs" meets "cost", "payments" meets "payment", "invoices" meets "invoice"; but "pro" only "pro",
 * "opening" is not "open" (opening hours are not what opens the chat), and a word is no stem of a longer name ("tall"
 * is not "Tallyfern"): an ending of at most two letters.
 */
const MAX_ENDING = 2;
const sameWord = (a: string, b: string): boolean => {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return wordMatches(long, short) && long.length - short.length <= MAX_ENDING;
};
const mentions = (words: readonly string[], word: string): boolean => words.some((candidate) => sameWord(candidate, word));

/** The knowledge search to make for a request, when the tool is offered and the request is a question with a subject. */
export function knowledgeSearchCall(
  request: string,
  tools: readonly LanguageModelV4FunctionTool[],
): { toolName: string; input: { query: string; limit: number } } | undefined {
  if (!tools.some((tool) => tool.name === KNOWLEDGE_SEARCH_TOOL) || !isQuestion(request) || contentWords(request).length === 0) return undefined;
  return { toolName: KNOWLEDGE_SEARCH_TOOL, input: { query: request.trim().slice(0, 500), limit: SEARCH_LIMIT } };
}

function isRecord(value: unknown): value is Record<string, JSONValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function passageOf(value: JSONValue): Passage[] {
  if (!isRecord(value) || typeof value.text !== 'string' || typeof value.title !== 'string' || typeof value.score !== 'number') return [];
  return [
    {
      title: value.title,
      url: typeof value.url === 'string' ? value.url : null,
      text: value.text,
      score: value.score,
      ...(typeof value.number === 'number' && Number.isInteger(value.number) ? { number: value.number } : {}),
      ...(typeof value.cite === 'string' ? { cite: value.cite } : {}),
    },
  ];
}

/** The passages of a knowledge search result (the skill's `{results: [...]}`), best first; nothing for anything else. */
export function passagesIn(result: ToolResultSeen): Passage[] | undefined {
  if (result.toolName !== KNOWLEDGE_SEARCH_TOOL) return undefined;
  const { output } = result;
  let value: unknown;
  if (output.type === 'json') value = output.value;
  else if (output.type === 'text') {
    try {
      value = JSON.parse(output.value);
    } catch {
      return [];
    }
  } else return [];
  const results = isRecord(value) && Array.isArray(value.results) ? value.results : [];
  return results.flatMap(passageOf).sort((a, b) => b.score - a.score);
}

function sentencesOf(text: string, language: string): string[] {
  const segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
  return text
    .split(/\n+/)
    .flatMap((line) => [...segmenter.segment(line)].map((segment) => segment.segment.replace(/\s+/g, ' ').trim()))
    .filter((sentence) => sentence.length > 0);
}

/** How many of the question's words a text mentions. */
const overlap = (question: readonly string[], text: string): number => {
  const words = wordsOf(text);
  return question.filter((word) => mentions(words, word)).length;
};

/**
 * Whether a passage mentions enough of a question's subject words to be about it: one of up to three, two of four or
 * more (a word in passing, "won" in "a deal is won", does not answer "Who won the football World Cup?"), or one in its
 * title (a written answer's title is its question; a page's says what it is about).
 */
const mentionsEnough = (question: readonly string[], passage: Passage): boolean =>
  overlap(question, `${passage.title}\n${passage.text}`) >= (question.length >= 4 ? 2 : 1) || overlap(question, passage.title) > 0;

/** How much a place lower in the search's ranking costs a passage, in words of the question it mentions. */
const RANK_COST = 0.5;

/**
 * The passage to answer from. The platform's search already judged relevance (its score and rank): a passage it
 * returned that mentions at least one of the question's subject words (its page's title counts) is about the question,
 * though worded otherwise ("payment methods you take" is answered by "We accept payments by card…"). Of those, the
 * best ranked wins, unless one a little lower mentions clearly more of the question in its title and its own text
 * (of one page's passages, which share its title, the text tells them apart: "enable 2FA", not "disable 2FA"). A
 * search that returned nothing that mentions the question returned nothing relevant.
 */
function bestPassage(passages: readonly Passage[], question: readonly string[]): Passage | undefined {
  let best: { passage: Passage; value: number } | undefined;
  passages.forEach((passage, rank) => {
    if (passage.score <= MIN_SCORE || !mentionsEnough(question, passage)) return;
    const value = overlap(question, passage.title) + overlap(question, passage.text) - rank * RANK_COST;
    if (!best || value > best.value) best = { passage, value };
  });
  return best?.passage;
}

/**
 * What to quote of the passage: all of it when it is short (a help center's section says one thing, and a paraphrase
 * may share no word with the sentence that answers it), else its sentences that mention most of the question (the
 * first few), in its own order, within the answer's size.
 */
function quotedSentences(passage: Passage, question: readonly string[], language: string): string[] {
  const all = sentencesOf(passage.text, language);
  if (all.join(' ').length <= MAX_ANSWER_CHARS) return all;
  const sentences = all.map((sentence, index) => ({ sentence, index, hits: overlap(question, sentence) }));
  const most = Math.max(0, ...sentences.map((candidate) => candidate.hits));
  const chosen = sentences.filter((candidate) => most > 0 && candidate.hits === most).slice(0, MAX_SENTENCES);
  // No sentence says the question's words (a paraphrase): the passage's opening says what it is about.
  const picked = chosen.length > 0 ? chosen : sentences.slice(0, MAX_SENTENCES);
  const kept: string[] = [];
  let length = 0;
  for (const { sentence } of picked) {
    if (kept.length > 0 && length + sentence.length > MAX_ANSWER_CHARS) break;
    kept.push(sentence.length > MAX_ANSWER_CHARS ? `${sentence.slice(0, MAX_ANSWER_CHARS - 1)}…` : sentence);
    length += sentence.length;
  }
  return kept;
}

/**
 * Names the question gives that the passage does not have ("How much is the Pro plan?" → "Pro plan"): a capitalised
 * word not starting the question, with the subject word after it when the passage has that one.
 */
function missingNames(request: string, passage: Passage): string[] {
  const passageWords = wordsOf(`${passage.title}\n${passage.text}`);
  const tokens = request.match(/[\p{L}\p{N}]+/gu) ?? [];
  const missing: string[] = [];
  tokens.forEach((token, index) => {
    const [word] = wordsOf(token);
    if (index === 0 || !word || !/^\p{Lu}/u.test(token) || STOP_WORDS.has(word) || mentions(passageWords, word)) return;
    const next = tokens[index + 1];
    const nextWord = next ? wordsOf(next)[0] : undefined;
    missing.push(next && nextWord && !STOP_WORDS.has(nextWord) && mentions(passageWords, nextWord) ? `${token} ${next}` : token);
  });
  return missing;
}

function citationOf(passage: Passage, phrases: KnowledgePhrases): string {
  if (passage.number !== undefined) return `[${passage.number}]`;
  return passage.cite ?? phrases.source(passage.title, passage.url);
}

/**
 * The answer to a request whose knowledge search came back, or undefined when none did: the best relevant passage's
 * sentences with its citation, or "I do not know" with the contact page.
 */
export function knowledgeAnswer(view: PromptView, language: string): (Omit<AnswerFacts, 'prose'> & { body: string }) | undefined {
  const searched = view.resultsSinceRequest.map(passagesIn).find((passages) => passages !== undefined);
  if (!searched) return undefined;
  const phrases = phrasesFor(language);
  const question = contentWords(view.request);
  const passage = bestPassage(searched, question);
  if (!passage) return { body: `${phrases.dontKnow} ${phrases.contact}`, followUp: phrases.contact, outcome: 'partial' };
  const missing = missingNames(view.request, passage);
  const notMentioned = missing.length > 0 ? [phrases.notMentioned(missing.map((name) => `“${name}”`).join(', '))] : [];
  return { body: [...notMentioned, ...quotedSentences(passage, question, language), citationOf(passage, phrases)].join(' '), followUp: null, outcome: 'ok' };
}
