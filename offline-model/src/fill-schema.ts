import type { JSONSchema7, JSONValue } from '@ai-sdk/provider';
import { lookupByKey, type Knowledge, type Outcome } from './knowledge';
import { coreSchema, enumValues, propertiesOf, semanticOf, type PropertySpec, type ValueType } from './schema';
import { wordsOf } from './words';

// Fills a JSON schema from what the offline model knows: for a tool's input (where a missing required value
// means "ask the user") and for structured output (where a missing value is null or absent, never invented).

/** What the answer itself contributes to structured output. */
export interface AnswerFacts {
  prose: string;
  followUp: string | null;
  outcome: Outcome;
}

type Mode = { kind: 'tool-input' } | { kind: 'output'; facts: AnswerFacts };

interface FillState {
  knowledge: Knowledge;
  mode: Mode;
  /** Quoted strings not yet handed out; they go to text properties in schema order. */
  quotes: string[];
  /** Required properties that could not be filled (dotted paths). */
  missing: string[];
}

export function toolInputFor(schema: JSONSchema7, knowledge: Knowledge): { input: Record<string, JSONValue>; missing: string[] } {
  const state: FillState = { knowledge, mode: { kind: 'tool-input' }, quotes: [...knowledge.extracted.quoted], missing: [] };
  return { input: fillObject(schema, state, ''), missing: state.missing };
}

export function outputFor(schema: JSONSchema7, knowledge: Knowledge, facts: AnswerFacts): JSONValue {
  const state: FillState = { knowledge, mode: { kind: 'output', facts }, quotes: [...knowledge.extracted.quoted], missing: [] };
  const type = coreSchema(schema).type;
  if (type === 'object' || coreSchema(schema).properties) return fillObject(schema, state, '');
  // A non-object response format (rare): the prose itself.
  return facts.prose;
}

function fillObject(schema: JSONSchema7, state: FillState, path: string): Record<string, JSONValue> {
  const filled: Record<string, JSONValue> = {};
  for (const property of propertiesOf(schema)) {
    const value = valueFor(property, state, `${path}${property.name}`);
    if (value !== undefined) filled[property.name] = value;
    else if (state.mode.kind === 'output' && property.nullable) filled[property.name] = null;
    else if (state.mode.kind === 'tool-input' && property.required) state.missing.push(`${path}${property.name}`);
  }
  return filled;
}

function valueFor(property: PropertySpec, state: FillState, path: string): JSONValue | undefined {
  const named = lookupByKey(state.knowledge.sources, property.name);
  const fromSources = named === undefined ? undefined : coerce(named, property);
  if (fromSources !== undefined) return fromSources;
  const choices = enumValues(property.schema);
  if (choices) return enumChoice(choices, property, state);
  if (property.type === 'object') {
    const nested = fillObject(property.schema, state, `${path}.`);
    return Object.keys(nested).length > 0 ? nested : undefined;
  }
  return semanticValue(property, state) ?? requiredFallback(property, state);
}

function coerce(value: JSONValue, property: PropertySpec): JSONValue | undefined {
  const choices = enumValues(property.schema);
  if (choices) return choices.find((choice) => choice === value || String(choice) === String(value)) as JSONValue | undefined;
  switch (property.type) {
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    case 'number':
    case 'integer': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(number) && (property.type === 'number' || Number.isInteger(number)) ? number : undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : undefined;
    case 'array':
      return Array.isArray(value) ? value : undefined;
    case 'object':
      return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
    default:
      return value;
  }
}

function enumChoice(choices: unknown[], property: PropertySpec, state: FillState): JSONValue | undefined {
  if (state.mode.kind === 'output' && choices.includes(state.mode.facts.outcome)) return state.mode.facts.outcome;
  const requestWords = wordsOf(state.knowledge.request);
  const mentioned = choices.find((choice) => typeof choice === 'string' && wordsOf(choice).every((word) => requestWords.includes(word)));
  if (mentioned !== undefined) return mentioned as JSONValue;
  const fallback = coreSchema(property.schema).default;
  return fallback !== undefined && choices.includes(fallback) ? (fallback as JSONValue) : undefined;
}

/** RFC 3339 date-time: seconds added when absent; a time written without an offset is taken as UTC. */
function asDateTime(value: string): string {
  const [date, rest = '00:00'] = value.split('T');
  const offsetMatch = /(Z|[+-]\d{2}:?\d{2})$/.exec(rest);
  const clock = offsetMatch ? rest.slice(0, -offsetMatch[0].length) : rest;
  const seconds = clock.length === 5 ? `${clock}:00` : clock;
  const offset = offsetMatch?.[0] ?? 'Z';
  return `${date}T${seconds.padStart(8, '0')}${offset === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`;
}

function isEndOfRange(property: PropertySpec): boolean {
  return wordsOf(property.name).some((word) => ['end', 'ends', 'until', 'bitiş'].includes(word));
}

function nameFromEmail(email: string | undefined): string | undefined {
  const local = email?.split('@')[0];
  const parts = local?.split(/[._-]+/).filter((part) => /^\p{L}+$/u.test(part));
  return parts && parts.length >= 2 ? parts.map((part) => part[0]?.toUpperCase() + part.slice(1)).join(' ') : undefined;
}

function firstSentence(text: string): string {
  return /^.*?[.!?](?=\s|$)/s.exec(text)?.[0] ?? text;
}

function semanticValue(property: PropertySpec, state: FillState): JSONValue | undefined {
  const { extracted, language } = state.knowledge;
  const many = property.type === 'array';
  const pick = (values: string[], index = 0): JSONValue | undefined => (many ? (values.length ? values : undefined) : values[index]);
  const personName = extracted.names[0] ?? nameFromEmail(extracted.emails[0]);
  switch (semanticOf(property)) {
    case 'email':
      return pick(extracted.emails);
    case 'phone':
      return pick(extracted.phones);
    case 'url':
      return pick(extracted.urls.length ? extracted.urls : extracted.paths);
    case 'date-time': {
      const value = extracted.dateTimes[isEndOfRange(property) ? 1 : 0];
      return value === undefined ? undefined : asDateTime(value);
    }
    case 'date':
      return extracted.dates[0] ?? extracted.dateTimes[0]?.slice(0, 10);
    case 'time':
      return extracted.times[0] === undefined ? undefined : `${extracted.times[0].padStart(5, '0')}:00`;
    case 'name':
      return many ? pick(extracted.names) : personName;
    case 'first-name':
      return personName?.split(' ')[0];
    case 'last-name':
      return personName?.split(' ').slice(1).join(' ') || undefined;
    case 'language':
      return language;
    case 'summary':
      return state.mode.kind === 'output' ? firstSentence(state.mode.facts.prose) : undefined;
    case 'follow-up':
      return state.mode.kind === 'output' ? (state.mode.facts.followUp ?? undefined) : undefined;
    case 'title':
    case 'body':
      return property.type === 'string' ? state.quotes.shift() : undefined;
    case 'none':
      // A quoted string is only a guess for an unnamed text property; spend it only where a value is required.
      return property.type === 'string' && property.required ? state.quotes.shift() : undefined;
  }
}

/** Tool input only: values a caller can live with when the request does not say (never for contact data or dates). */
function requiredFallback(property: PropertySpec, state: FillState): JSONValue | undefined {
  if (state.mode.kind !== 'tool-input' || !property.required) return undefined;
  const schema = coreSchema(property.schema);
  if (schema.default !== undefined) return schema.default as JSONValue;
  const semantic = semanticOf(property);
  const typeFallbacks: Partial<Record<ValueType, () => JSONValue | undefined>> = {
    string: () => (['title', 'body', 'summary', 'none'].includes(semantic) ? truncate(state.knowledge.request, schema.maxLength) : undefined),
    number: () => state.knowledge.extracted.numbers[0],
    integer: () => state.knowledge.extracted.numbers.find(Number.isInteger),
    boolean: () => false,
    array: () => [],
  };
  return property.type ? typeFallbacks[property.type]?.() : undefined;
}

function truncate(text: string, maxLength = 200): string | undefined {
  const clean = normalizeSpaces(text);
  return clean === '' ? undefined : clean.length <= maxLength ? clean : `${clean.slice(0, maxLength - 1)}…`;
}

function normalizeSpaces(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
