import type { JSONSchema7, JSONSchema7Definition } from '@ai-sdk/provider';
import { identifierWords, wordsOf, containsWord } from './words';

// Reading the JSON schemas that reach a model (tool input schemas and the response format), as produced by
// zod 4 through the AI SDK or written by hand: `type` may be a list, nullability may be `anyOf: [.., {type: null}]`.

export type ValueType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';

export interface PropertySpec {
  name: string;
  schema: JSONSchema7;
  type: ValueType | undefined;
  nullable: boolean;
  required: boolean;
  /** The words of the property's name and description, for the semantic rules. */
  words: string[];
}

function asSchema(definition: JSONSchema7Definition | undefined): JSONSchema7 {
  return typeof definition === 'object' ? definition : {};
}

/** The schema with a nullable union (`anyOf`/`oneOf` of a type and null) collapsed to its non-null member. */
export function coreSchema(schema: JSONSchema7): JSONSchema7 {
  const union = schema.anyOf ?? schema.oneOf;
  if (!union) return schema;
  const members = union.map(asSchema).filter((member) => member.type !== 'null');
  return members.length === 1 && members[0] ? { ...members[0], description: schema.description ?? members[0].description } : schema;
}

function valueType(schema: JSONSchema7): ValueType | undefined {
  const core = coreSchema(schema);
  const types = Array.isArray(core.type) ? core.type : core.type ? [core.type] : [];
  const concrete = types.find((type): type is ValueType => type !== 'null');
  if (concrete) return concrete;
  if (core.enum?.every((value) => typeof value === 'string')) return 'string';
  return core.properties ? 'object' : undefined;
}

function isNullable(schema: JSONSchema7): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const union = (schema.anyOf ?? schema.oneOf ?? []).map(asSchema);
  return types.includes('null') || union.some((member) => member.type === 'null') || (schema.enum?.includes(null) ?? false);
}

export function propertiesOf(schema: JSONSchema7): PropertySpec[] {
  const core = coreSchema(schema);
  const required = new Set(core.required ?? []);
  return Object.entries(core.properties ?? {}).map(([name, definition]) => {
    const propertySchema = asSchema(definition);
    const description = coreSchema(propertySchema).description ?? '';
    return {
      name,
      schema: propertySchema,
      type: valueType(propertySchema),
      nullable: isNullable(propertySchema),
      required: required.has(name),
      words: [...identifierWords(name), ...wordsOf(description)],
    };
  });
}

export function enumValues(schema: JSONSchema7): unknown[] | undefined {
  return coreSchema(schema).enum?.filter((value) => value !== null);
}

/** What kind of value a property holds, judged from its format, name and description (in that order). */
export type Semantic =
  | 'email'
  | 'phone'
  | 'url'
  | 'date-time'
  | 'date'
  | 'time'
  | 'first-name'
  | 'last-name'
  | 'name'
  | 'title'
  | 'body'
  | 'summary'
  | 'language'
  | 'follow-up'
  | 'none';

const SEMANTIC_WORDS: ReadonlyArray<[Semantic, readonly string[]]> = [
  ['email', ['email', 'eposta', 'recipient', 'alıcı']],
  ['phone', ['phone', 'telephone', 'mobile', 'telefon']],
  ['url', ['url', 'href', 'link', 'website', 'site']],
  ['follow-up', ['follow', 'followup', 'missing', 'question']],
  ['date-time', ['datetime', 'start', 'starts', 'end', 'ends', 'when', 'at', 'time', 'saat', 'zaman']],
  ['date', ['date', 'day', 'due', 'deadline', 'tarih', 'gün']],
  ['first-name', ['firstname', 'given']],
  ['last-name', ['lastname', 'surname', 'family', 'soyad']],
  ['language', ['language', 'lang', 'locale', 'dil']],
  ['summary', ['summary', 'answer', 'reply', 'response', 'özet', 'cevap', 'yanıt']],
  ['name', ['name', 'person', 'ad', 'isim']],
  ['title', ['subject', 'title', 'headline', 'konu', 'başlık']],
  ['body', ['body', 'text', 'message', 'content', 'description', 'notes', 'note', 'details', 'mesaj', 'içerik']],
];

const FORMAT_SEMANTICS: Record<string, Semantic> = {
  email: 'email',
  'idn-email': 'email',
  uri: 'url',
  url: 'url',
  'date-time': 'date-time',
  date: 'date',
  time: 'time',
};

// "company_name" names a company, "full_name" or "contact_name" a person.
const PERSON_QUALIFIERS = [
  'name',
  'full',
  'person',
  'contact',
  'customer',
  'client',
  'recipient',
  'attendee',
  'guest',
  'ad',
  'isim',
  'soyad',
  'kişi',
  'müşteri',
];

function isPersonName(nameWords: readonly string[]): boolean {
  return nameWords.every((word) => PERSON_QUALIFIERS.includes(word));
}

export function semanticOf(property: PropertySpec): Semantic {
  const format = coreSchema(property.schema).format;
  const byFormat = format ? FORMAT_SEMANTICS[format] : undefined;
  if (byFormat) return byFormat;
  const nameWords = identifierWords(property.name);
  const joined = nameWords.join('');
  if (joined === 'firstname' || joined === 'lastname') return joined === 'firstname' ? 'first-name' : 'last-name';
  // Short address fields of a message; "to" is too common a word to look for anywhere else.
  if (['to', 'cc', 'bcc', 'recipients'].includes(joined)) return 'email';
  // The name decides first, read from its last word (the head of "email_subject" is the subject); the
  // description only when the name says nothing.
  for (const word of [...nameWords].reverse()) {
    const found = SEMANTIC_WORDS.find(([, entries]) => containsWord([word], entries));
    if (found) return found[0] === 'name' && !isPersonName(nameWords) ? 'none' : found[0];
  }
  const byDescription = SEMANTIC_WORDS.find(([, entries]) => containsWord(property.words, entries));
  if (byDescription) return byDescription[0];
  return 'none';
}
