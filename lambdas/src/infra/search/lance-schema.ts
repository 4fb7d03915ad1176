import type * as LanceModule from '@lancedb/lancedb';
import type * as ArrowModule from 'apache-arrow';
import type { IndexRow } from './knowledge-index';
import { INDEX_LANGUAGES, STEMMER_LANGUAGE, type IndexLanguage } from './language';

/** The knowledge index's table layout on LanceDB: its columns, its rows as stored, its full-text tokenizers. */
export const textColumn = (language: IndexLanguage) => `text_${language}`;
export const TEXT_COLUMNS = INDEX_LANGUAGES.map(textColumn);
/** The columns of tables written before the kinds shared one: `parent_<language>` and `passage_<language>`. */
export const KIND_COLUMN = /^(parent|passage)_/;
/** A table's full-text indexes at most: one per text column. */
export const FULL_TEXT_INDEXES = TEXT_COLUMNS.length;

export const tableName = (workspaceId: string) => `ws_${workspaceId.replace(/[^0-9A-Za-z]/g, '')}`;
export const quoted = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Arrow is loaded with LanceDB (in AWS both come from the LanceDB layer, one copy, so LanceDB recognises the schema). */
export type Arrow = typeof ArrowModule;
/** LanceDB, loaded on first use (a function that never searches never loads it). */
export type Lance = typeof LanceModule;

export function schemaOf({ Field, FixedSizeList, Float32, Schema, Utf8 }: Arrow, dimensions: number | undefined): ArrowModule.Schema {
  const utf8 = (name: string, nullable = false) => new Field(name, new Utf8(), nullable);
  return new Schema([
    utf8('row_id'),
    utf8('document_id'),
    utf8('source_id'),
    utf8('name'),
    utf8('url', true),
    utf8('title'),
    utf8('text'),
    ...TEXT_COLUMNS.map((column) => utf8(column, true)),
    ...(dimensions ? [new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), true)] : []),
  ]);
}

export function ftsConfig(language: IndexLanguage) {
  if (language === 'ngram')
    return { baseTokenizer: 'ngram' as const, ngramMinLength: 1, ngramMaxLength: 2, lowercase: true, stem: false, removeStopWords: false, asciiFolding: false };
  if (language === 'neutral') return { baseTokenizer: 'simple' as const, lowercase: true, stem: false, removeStopWords: false, asciiFolding: false };
  return { baseTokenizer: 'simple' as const, language: STEMMER_LANGUAGE[language], lowercase: true, stem: true, removeStopWords: true, asciiFolding: true };
}

/** A row as LanceDB stores it: every text column null but the one of its kind and language. */
export function record(row: IndexRow): Record<string, unknown> {
  const columns: Record<string, string | null> = Object.fromEntries(TEXT_COLUMNS.map((column) => [column, null]));
  columns[textColumn(row.language)] = row.searchText;
  return {
    row_id: row.rowId,
    document_id: row.documentId,
    source_id: row.sourceId,
    name: row.name,
    url: row.url,
    title: row.title,
    text: row.text,
    ...columns,
    ...(row.vector ? { vector: row.vector } : {}),
  };
}
