import type { LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { LRUCache } from 'lru-cache';
import { identifierWords, wordMatches, wordsOf } from './words';

// Which offered tools a request asks for. A tool's name is read as concepts ("contacts__create" is
// {contact, create}); the request's words map to the same concepts through the synonyms below, in English
// and Turkish. Words outside the table stand for themselves ("weather__forecast" needs "weather", "forecast").

const CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  create: ['create', 'add', 'new', 'save', 'make', 'register', 'book', 'schedule', 'remind', 'ekle', 'oluştur', 'kaydet', 'yeni', 'planla', 'hatırlat'],
  send: ['send', 'write', 'deliver', 'gönder', 'yolla', 'yaz'],
  email: ['email', 'mail', 'eposta', 'posta'],
  contact: ['contact', 'person', 'people', 'customer', 'lead', 'kişi', 'müşteri', 'rehber'],
  event: ['calendar', 'event', 'meeting', 'appointment', 'booking', 'book', 'schedule', 'takvim', 'toplantı', 'randevu', 'etkinlik'],
  task: ['task', 'todo', 'reminder', 'remind', 'görev', 'hatırlat', 'yapılacak'],
  list: ['list', 'show', 'find', 'search', 'get', 'look', 'lookup', 'read', 'fetch', 'listele', 'göster', 'bul', 'ara', 'getir'],
  update: ['update', 'change', 'edit', 'modify', 'güncelle', 'değiştir'],
  delete: ['delete', 'remove', 'cancel', 'sil', 'kaldır', 'iptal'],
};

// Verbs: a tool is never chosen on its verb alone ("show me pricing" must not pick `contacts__list`).
const ACTION_CONCEPTS = new Set(['create', 'send', 'list', 'update', 'delete']);
// Verbs that change the world: a tool is never chosen without its own ("summarise the lead" must not pick
// `contacts__create`), only a reading tool may be chosen on its subject alone.
const CHANGING_CONCEPTS = new Set(['create', 'send', 'update', 'delete']);

// Name words that say nothing about what a tool does.
const NEUTRAL_WORDS = new Set(['builtin', 'skill', 'tool', 'api', 'mcp', 'service', 'do', 'run']);

/** Words of descriptions too common to count as evidence. */
const STOP_WORDS = new Set(['with', 'from', 'that', 'this', 'into', 'about', 'their', 'your', 'given', 'will', 'also', 'when']);

// Pure functions of their text, asked again on every call for the same words and the same offered tools.
const wordConcepts = new LRUCache<string, readonly string[]>({ max: 10_000 });
const toolConcepts = new LRUCache<string, { name: readonly string[]; description: ReadonlySet<string> }>({ max: 1_000 });

function conceptsOfWord(word: string): readonly string[] {
  let concepts = wordConcepts.get(word);
  if (!concepts) {
    const found = Object.entries(CONCEPTS).flatMap(([concept, synonyms]) => (synonyms.some((synonym) => wordMatches(word, synonym)) ? [concept] : []));
    wordConcepts.set(word, (concepts = found.length > 0 ? found : [word]));
  }
  return concepts;
}

function conceptsOf(words: readonly string[]): Set<string> {
  return new Set(words.flatMap(conceptsOfWord));
}

interface ToolMatch {
  tool: LanguageModelV4FunctionTool;
  /** Every concept of the tool's name is in the request. */
  complete: boolean;
  /** At least half of the name's concepts are in the request, one of them not a verb, and its changing verb if it has one. */
  partial: boolean;
  score: number;
}

function conceptsOfTool(tool: LanguageModelV4FunctionTool): { name: readonly string[]; description: ReadonlySet<string> } {
  const key = `${tool.name}\n${tool.description ?? ''}`;
  let concepts = toolConcepts.get(key);
  if (!concepts) {
    concepts = {
      name: [...conceptsOf(identifierWords(tool.name).filter((word) => !NEUTRAL_WORDS.has(word)))],
      description: conceptsOf(wordsOf(tool.description ?? '').filter((word) => word.length >= 4 && !STOP_WORDS.has(word))),
    };
    toolConcepts.set(key, concepts);
  }
  return concepts;
}

function scoreTool(tool: LanguageModelV4FunctionTool, requestConcepts: ReadonlySet<string>): ToolMatch {
  const { name: nameConcepts, description: descriptionConcepts } = conceptsOfTool(tool);
  const hits = nameConcepts.filter((concept) => requestConcepts.has(concept));
  const nameHits = hits.length;
  const descriptionHits = [...descriptionConcepts].filter((concept) => requestConcepts.has(concept) && !nameConcepts.includes(concept)).length;
  return {
    tool,
    complete: nameConcepts.length > 0 && nameHits === nameConcepts.length,
    partial:
      2 * nameHits >= nameConcepts.length &&
      hits.some((concept) => !ACTION_CONCEPTS.has(concept)) &&
      nameConcepts.every((concept) => !CHANGING_CONCEPTS.has(concept) || requestConcepts.has(concept)),
    score: nameConcepts.length === 0 ? 0 : (2 * nameHits + descriptionHits) / (2 * nameConcepts.length),
  };
}

export interface MatchedTool {
  tool: LanguageModelV4FunctionTool;
  /** Chosen on part of its name: worth calling when its input is at hand, not worth asking the user for it. */
  guessed: boolean;
}

/**
 * The tools a request asks for: every tool whose whole name is in the request; failing that, the one best
 * tool that has at least half of its name in it, not only its verb (a guess). Ties go to the tool offered first.
 */
export function matchTools(request: string, tools: readonly LanguageModelV4FunctionTool[]): MatchedTool[] {
  const requestConcepts = conceptsOf(wordsOf(request));
  const matches = tools.map((tool) => scoreTool(tool, requestConcepts));
  const complete = matches.filter((match) => match.complete);
  if (complete.length > 0) return complete.map((match) => ({ tool: match.tool, guessed: false }));
  const best = matches
    .filter((match) => match.partial)
    .reduce<ToolMatch | undefined>((top, match) => (match.score > (top?.score ?? 0) ? match : top), undefined);
  return best ? [{ tool: best.tool, guessed: true }] : [];
}

/** The best tool regardless of thresholds (for `toolChoice: required`): the first offered when nothing matches. */
export function bestTool(request: string, tools: readonly LanguageModelV4FunctionTool[]): LanguageModelV4FunctionTool | undefined {
  const requestConcepts = conceptsOf(wordsOf(request));
  return tools.reduce<ToolMatch | undefined>((top, tool) => {
    const match = scoreTool(tool, requestConcepts);
    return !top || match.score > top.score ? match : top;
  }, undefined)?.tool;
}
