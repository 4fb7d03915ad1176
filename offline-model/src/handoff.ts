import type { LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import type { Language } from './language';
import { containsWord, wordsOf } from './words';

// The widget's `handoff` tool (issue 29): the offline model calls it when the visitor asks for a person in plain words
// ("I want to talk to a human", "Bir insanla konuşmak istiyorum"), with the visitor's words as the teammate's summary,
// and offers a person (the widget's Talk to a person marker) when it found nothing to answer from.

export const HANDOFF_TOOL = 'handoff';

/** Words for a person, and words that ask for one, in the languages the offline model writes (four letters or more match as prefixes). */
const PERSON_WORDS = [
  'human',
  'person',
  'someone',
  'somebody',
  'representative',
  'operator',
  'staff',
  'teammate',
  'people',
  'insan',
  'temsilci',
  'yetkili',
  'canlı',
  'birisi',
  'biriyle',
  'kişiyle',
  'müşteri temsilcisi',
  'mensch',
  'menschen',
  'mitarbeiter',
  'jemand',
  'jemandem',
  'berater',
  'humano',
  'persona',
  'alguien',
  'representante',
  'asesor',
];
const ASKING_WORDS = [
  'talk',
  'speak',
  'chat',
  'connect',
  'transfer',
  'want',
  'need',
  'get',
  'reach',
  'please',
  'let',
  'can',
  'konuş',
  'görüş',
  'bağla',
  'aktar',
  'istiyorum',
  'ulaş',
  'lütfen',
  'sprechen',
  'reden',
  'verbinden',
  'möchte',
  'will',
  'brauche',
  'bitte',
  'hablar',
  'conectar',
  'quiero',
  'necesito',
  'pasar',
  'comunicar',
  'favor',
];

/** Whether the request asks for a person: it names one and asks (a bare "are you human?" names one without asking). */
export function asksForPerson(request: string): boolean {
  const words = wordsOf(request);
  return containsWord(words, PERSON_WORDS) && containsWord(words, ASKING_WORDS);
}

const SUMMARY_CHARS = 300;

/** The `handoff` call for a request asking for a person, when the tool is offered. */
export function handoffCall(request: string, tools: readonly LanguageModelV4FunctionTool[]): { toolName: string; input: { summary: string } } | undefined {
  if (!tools.some((tool) => tool.name === HANDOFF_TOOL) || !asksForPerson(request)) return undefined;
  const words = request.replace(/\s+/g, ' ').trim();
  return {
    toolName: HANDOFF_TOOL,
    input: { summary: `The visitor asked for a person: "${words.length > SUMMARY_CHARS ? `${words.slice(0, SUMMARY_CHARS - 1)}…` : words}"` },
  };
}

/** The widget marker that offers a person (a "Talk to a person" button), by language. */
export const OFFER_PERSON: Record<Language, string> = {
  en: '[Action:Talk to a person|handoff]',
  tr: '[Action:Bir kişiyle konuşun|handoff]',
  de: '[Action:Mit einer Person sprechen|handoff]',
  es: '[Action:Hablar con una persona|handoff]',
};
