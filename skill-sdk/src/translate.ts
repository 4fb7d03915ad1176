import { primaryLanguage } from './language.js';

/** Nested message templates: `{ errors: { not_found: 'No {item} found' } }`. */
export interface Messages {
  [key: string]: string | Messages;
}
/** Language code -> messages. */
export type Locales = Readonly<Record<string, Messages>>;

export type Translate = (key: string, vars?: Record<string, unknown>, fallback?: string) => string;

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}|\{\s*([\w.-]+)\s*\}/g;

function lookup(messages: Messages | undefined, key: string): string | undefined {
  if (!messages) return undefined;
  const flat = messages[key];
  if (typeof flat === 'string') return flat;
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function interpolate(template: string, vars: Record<string, unknown> | undefined): string {
  if (!vars || typeof vars !== 'object') return template;
  return template.replace(PLACEHOLDER, (match, double: string | undefined, single: string | undefined) => {
    const value = vars[(double ?? single) as string];
    return value === undefined || value === null ? match : String(value);
  });
}

/**
 * ctx.t for one language. Falls back in four steps: the target language (then its primary subtag),
 * the default locale, the `fallback` argument, the key itself. It never throws: a missing message
 * must not break a tool.
 */
export function createTranslator(locales: Locales, language: string, defaultLocale: string): Translate {
  const chain = [...new Set([language, primaryLanguage(language), defaultLocale, primaryLanguage(defaultLocale)])]
    .map((tag) => locales[tag])
    .filter((messages): messages is Messages => messages !== undefined);
  return (key, vars, fallback) => {
    const name = String(key);
    try {
      for (const messages of chain) {
        const template = lookup(messages, name);
        if (template !== undefined) return interpolate(template, vars);
      }
      return fallback !== undefined ? interpolate(String(fallback), vars) : name;
    } catch {
      return fallback !== undefined ? String(fallback) : name;
    }
  };
}

const MAX_REMEMBERED = 256;
const remembered = new WeakMap<Locales, Map<string, Translate>>();

/** createTranslator, built once per locales and language: every call of a process asks for the same few. */
export function translatorFor(locales: Locales, language: string, defaultLocale: string): Translate {
  let byLanguage = remembered.get(locales);
  if (!byLanguage) remembered.set(locales, (byLanguage = new Map()));
  const key = `${language} ${defaultLocale}`;
  let translate = byLanguage.get(key);
  if (!translate) {
    if (byLanguage.size >= MAX_REMEMBERED) byLanguage.clear();
    translate = createTranslator(locales, language, defaultLocale);
    byLanguage.set(key, translate);
  }
  return translate;
}
