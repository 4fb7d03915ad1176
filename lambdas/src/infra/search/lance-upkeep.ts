import type { Table } from '@lancedb/lancedb';
import type { IndexRow } from './knowledge-index';
import { isRetryableConflict, retryingConflicts } from './lance-conflicts';
import { ftsConfig, TEXT_COLUMNS, textColumn, type Lance } from './lance-schema';

/**
 * Rows appended after an index was built are searched apart from it, with term statistics of their own, and their BM25
 * scores are merged with the indexed rows' as if comparable: a site whose first page (its home) built the index would
 * see that page outrank every page crawled after it. So a table's new rows are folded into its indexes (and its small
 * files compacted) once they are a quarter of the indexed rows, or this many, whichever comes first: a few optimizes
 * while a table grows (each at most a quarter of the rows again), none once it is large and changes little.
 */
const OPTIMIZE_EVERY_ROWS = 5_000;
const OPTIMIZE_AT_UNINDEXED_SHARE = 0.25;
const INDEX_LIST_TTL_MS = 30_000;

/** A table's indexes kept up: which columns are indexed (cached), the indexes its rows need, and the optimize that folds new rows in. */
export function indexUpkeep(lancedb: Lance) {
  /**
   * The indexed columns of each table, read again after a while (another process may have added one); by table name,
   * so an index this process builds is searched at once through the searching connection's handle too.
   */
  const indexCache = new Map<string, { columns: Promise<Set<string>>; readAt: number }>();
  function indexedColumns(table: Table, fresh = false): Promise<Set<string>> {
    const cached = indexCache.get(table.name);
    if (cached && !fresh && Date.now() - cached.readAt < INDEX_LIST_TTL_MS) return cached.columns;
    const columns = table.listIndices().then((indices) => new Set(indices.flatMap((index) => index.columns)));
    indexCache.set(table.name, { columns, readAt: Date.now() });
    columns.catch(() => indexCache.delete(table.name));
    return columns;
  }

  /** A full-text index per text column that holds rows, and a B-tree on document_id so a document's rows are found fast. */
  async function ensureIndexes(table: Table, rows: IndexRow[]): Promise<void> {
    const have = await indexedColumns(table);
    const wanted = new Map(rows.map((row) => [textColumn(row.language), row.language]));
    const missing = [...wanted].filter(([column]) => !have.has(column));
    if (have.has('document_id') && missing.length === 0) return;
    if (!have.has('document_id')) await retryingConflicts(() => table.createIndex('document_id', { config: lancedb.Index.btree() }));
    for (const [column, language] of missing) await retryingConflicts(() => table.createIndex(column, { config: lancedb.Index.fts(ftsConfig(language)) }));
    await indexedColumns(table, true);
  }

  async function maybeOptimize(table: Table): Promise<void> {
    const fullText = (await table.listIndices()).find((index) => index.columns.some((column) => TEXT_COLUMNS.includes(column)));
    const stats = fullText && (await table.indexStats(fullText.name));
    if (!stats || stats.numUnindexedRows === 0) return;
    if (stats.numUnindexedRows < Math.min(OPTIMIZE_EVERY_ROWS, Math.max(1, stats.numIndexedRows * OPTIMIZE_AT_UNINDEXED_SHARE))) return;
    try {
      await table.optimize();
    } catch (error) {
      // Another writer compacted first: the rows it left unindexed are folded in at a later batch.
      if (!isRetryableConflict(error)) throw error;
    }
  }

  return { indexedColumns, ensureIndexes, maybeOptimize };
}

export type IndexUpkeep = ReturnType<typeof indexUpkeep>;
