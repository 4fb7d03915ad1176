import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { formatIssues } from './errors.js';
import { normalizeLanguage } from './language.js';
import type { Locales, Messages } from './translate.js';

const messagesSchema: z.ZodType<Messages> = z.lazy(() => z.record(z.string(), z.union([z.string(), messagesSchema])));
export const localesSchema = z.record(z.string(), messagesSchema);

/** Canonical language tags as keys, so `tr-tr` and `tr-TR` find the same messages. */
export function normalizeLocales(locales: Record<string, Messages>): Locales {
  const normalized: Record<string, Messages> = {};
  for (const [tag, messages] of Object.entries(locales)) {
    const language = normalizeLanguage(tag, '');
    if (!language) throw new Error(`Invalid skill definition: locales: "${tag}" is not a language code`);
    normalized[language] = messages;
  }
  return Object.freeze(normalized);
}

/** Reads `<dir>/<language>.json` files, e.g. locales/en.json and locales/tr.json. */
export function readLocalesDir(dir: string | URL): Locales {
  const path = dir instanceof URL ? fileURLToPath(dir) : dir;
  let files: string[];
  try {
    files = readdirSync(path).filter((file) => file.endsWith('.json'));
  } catch (error) {
    throw new Error(`Invalid skill definition: localesDir ${path} cannot be read (${(error as Error).message})`, { cause: error });
  }
  const locales: Record<string, Messages> = {};
  for (const file of files) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(join(path, file), 'utf8'));
    } catch (error) {
      throw new Error(`Invalid skill definition: ${join(path, file)} is not valid JSON (${(error as Error).message})`, { cause: error });
    }
    const parsed = messagesSchema.safeParse(json);
    if (!parsed.success) {
      throw new Error(`Invalid skill definition: ${join(path, file)}: ${formatIssues(parsed.error)}`);
    }
    locales[basename(file, '.json')] = parsed.data;
  }
  return normalizeLocales(locales);
}
