import type { Connection, Table } from '@lancedb/lancedb';
import type { KnowledgeIndex } from './knowledge-index';
import { kindColumnMigration } from './lance-migration';
import { FULL_TEXT_INDEXES, quoted, record, schemaOf, tableName } from './lance-schema';
import { searchTable } from './lance-search';
import { tableHandles } from './lance-tables';
import { giveLanceSpareCpuThreads } from './lance-threads';
import { indexUpkeep } from './lance-upkeep';
import { WriteBatcher, type PendingReplace } from './lance-write-batcher';

export { FULL_TEXT_INDEXES } from './lance-schema';

const DELETE_IDS_AT_ONCE = 500;

/**
 * The knowledge index on LanceDB (locally a directory under the data dir, in AWS an `s3://` URI): one table per
 * workspace. Full-text search is LanceDB's own BM25 index with one text column per language, so each language is
 * tokenised by its own stemmer and stop words (and the neutral column by none). A document is indexed as a parent (its
 * whole text) and its passages (the sections), both in its language's column: one full-text query finds both kinds,
 * and its rows split by kind make the parents' ranking and the passages' ranking, fused (with the passages' vector
 * ranking, where rows carry embeddings) by reciprocal rank fusion, as Dify's parent-child chunks. One query instead of
 * a column per kind searched apart: a fifth faster at 10,000 passages, and as good on SciFact (bench/knowledge.ts).
 *
 * Opens the index at `uri`: the parts are the table layout (lance-schema), writes batched per workspace
 * (lance-write-batcher), indexes kept up and optimized (lance-upkeep), the old layout's migration (lance-migration)
 * and the search itself (lance-search); this wires them to two connections, one writing, one searching.
 */
export async function openLanceIndex(uri: string, options: { storageOptions?: Record<string, string>; dimensions?: number } = {}): Promise<KnowledgeIndex> {
  giveLanceSpareCpuThreads(FULL_TEXT_INDEXES);
  const [lancedb, arrow] = await Promise.all([import('@lancedb/lancedb'), import('apache-arrow')]);
  const storage = options.storageOptions ? { storageOptions: options.storageOptions } : {};
  // Writes and counts check for versions other processes committed at every read (readConsistencyInterval 0): in AWS
  // the consumer writes while warm Api and SkillApi sandboxes search, and LanceDB's default would let them answer from
  // the version they opened until they are recycled. A search checks once, at its start, on a connection of its own
  // (its queries then read that one version): on S3 each check is a LIST, which costs as much as 12 GETs.
  const db: Connection = await lancedb.connect(uri, { readConsistencyInterval: 0, ...storage });
  const searcher: Connection = await lancedb.connect(uri, storage);
  const tables = tableHandles(db);
  const searched = tableHandles(searcher);
  const existing = tables.existing;

  const upkeep = indexUpkeep(lancedb);
  const upgraded = kindColumnMigration(lancedb, existing, upkeep);

  async function created(workspaceId: string): Promise<Table> {
    const table = await existing(workspaceId);
    if (table) return table;
    const made = await db.createEmptyTable(tableName(workspaceId), schemaOf(arrow, options.dimensions), { existOk: true });
    tables.opened(workspaceId, made);
    return made;
  }

  /** One batch: every document's old rows deleted at once, every new row appended at once. */
  async function writeBatch(workspaceId: string, batch: PendingReplace[]): Promise<void> {
    // A document replaced twice in one batch: its last rows are the ones that count.
    const latest = new Map(batch.map((item) => [item.documentId, item.rows]));
    const rows = [...latest.values()].flat();
    await upgraded(workspaceId);
    const table = rows.length > 0 ? await created(workspaceId) : await existing(workspaceId);
    if (!table) return;
    const ids = [...latest.keys()];
    for (let at = 0; at < ids.length; at += DELETE_IDS_AT_ONCE) {
      await table.delete(
        `document_id IN (${ids
          .slice(at, at + DELETE_IDS_AT_ONCE)
          .map(quoted)
          .join(', ')})`,
      );
    }
    if (rows.length > 0) {
      await table.add(rows.map(record));
      await upkeep.ensureIndexes(table, rows);
    }
    if (rows.length > 0) await upkeep.maybeOptimize(table);
  }
  const writes = new WriteBatcher(writeBatch);

  return {
    replaceDocument: (workspaceId, documentId, rows) => writes.replace(workspaceId, documentId, rows),

    deleteSource: (workspaceId, sourceId) =>
      writes.exclusive(workspaceId, async () => {
        const table = await existing(workspaceId);
        if (table) await table.delete(`source_id = ${quoted(sourceId)}`);
      }),

    async search(workspaceId, query) {
      const table = await searched.existing(workspaceId);
      if (!table || (query.sourceIds && query.sourceIds.length === 0)) return [];
      await upgraded(workspaceId);
      await table.checkoutLatest();
      return searchTable(table, query, await upkeep.indexedColumns(table));
    },

    async countRows(workspaceId, filter = {}) {
      const table = await existing(workspaceId);
      if (!table) return 0;
      const conditions = [
        ...(filter.sourceId ? [`source_id = ${quoted(filter.sourceId)}`] : []),
        ...(filter.documentId ? [`document_id = ${quoted(filter.documentId)}`] : []),
      ];
      return table.countRows(conditions.length > 0 ? conditions.join(' AND ') : undefined);
    },

    optimize: (workspaceId) =>
      writes.exclusive(workspaceId, async () => {
        const table = await existing(workspaceId);
        if (table) await table.optimize();
      }),

    close() {
      db.close();
      searcher.close();
    },
  };
}
