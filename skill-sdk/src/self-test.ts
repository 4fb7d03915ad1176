import type { Skill } from './define-skill.js';
import type { Messages } from './translate.js';

function keysOf(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`)));
}

/** Message keys of the default locale that another locale lacks: language -> keys. */
export function missingTranslations(skill: Skill): Record<string, string[]> {
  const reference = skill.locales[skill.defaultLocale];
  if (!reference) return {};
  const required = keysOf(reference);
  const missing: Record<string, string[]> = {};
  for (const [language, messages] of Object.entries(skill.locales)) {
    const present = new Set(keysOf(messages));
    const absent = required.filter((key) => !present.has(key));
    if (absent.length > 0) missing[language] = absent;
  }
  return missing;
}
