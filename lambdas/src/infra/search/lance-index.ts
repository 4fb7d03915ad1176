import type { Connection, Table } from '@lancedb/lancedb';
import type * as ArrowModule from 'apache-arrow';
import type { IndexHit, IndexQuery, IndexRow, KnowledgeIndex } from './knowledge-index';
import { giveLanceSpareCpuThreads } from './lance-threads';
import { indexLanguageOf, INDEX_LANGUAGES, STEMMER_LANGUAGE, type IndexLanguage } from './language';
import { fuseByReciprocalRank, type Ranking } from './rank-fusion';

/**
 * The knowledge index on LanceDB (locally a directory under the data dir, in AWS an `s3://` URI): one table per
 * workspace. Full-text search is LanceDB's own BM25 index with one text column per language, so each language is
 * tokenised by its own stemmer and stop words (and the neutral column by none). A document is indexed as a parent (its
 * whole text) and its passages (the sections), both in its language's column: one full-text query finds both kinds,
 * and its rows split by kind make the parents' ranking and the passages' ranking, fused (with the passages' vector
 * ranking, where rows carry embeddings) by reciprocal rank fusion, as Dify's parent-child chunks. One query instead of
 * a column per kind searched apart: a fifth faster at 10,000 passages, and as good on SciFact (bench/knowledge.ts).
 */
const textColumn = (language: IndexLanguage) => `text_${language}`;
const TEXT_COLUMNS = INDEX_LANGUAGES.map(textColumn);
/** The columns of tables written before the kinds shared one: `parent_<language>` and `passage_<language>`. */
const KIND_COLUMN = /^(parent|passage)_/;
/** A table's full-text indexes at most: one per text column. */
export const FULL_TEXT_INDEXES = TEXT_COLUMNS.length;

/** RRF's k (the usual 60) and the passages' weight against the parents' (the best of the weights tried on SciFact). */
export const RRF_K = 60;
export const PASSAGE_WEIGHT = 0.5;
/** How many candidates each ranking contributes before fusion, per result asked for (at least 50). */
const CANDIDATES_PER_RESULT = 3;
/**
 * Rows appended after an index was built are searched apart from it, with term statistics of their own, and their BM25
 * scores are merged with the indexed rows' as if comparable: a site whose first page (its home) built the index would
 * see that page outrank every page crawled after it. So a table's new rows are folded into its indexes (and its small
 * files compacted) once they are a quarter of the indexed rows, or this many, whichever comes first: a few optimizes
 * while a table grows (each at most a quarter of the rows again), none once it is large and changes little.
 */
const OPTIMIZE_EVERY_ROWS = 5_000;
const OPTIMIZE_AT_UNINDEXED_SHARE = 0.25;
const DELETE_IDS_AT_ONCE = 500;
const INDEX_LIST_TTL_MS = 30_000;

const tableName = (workspaceId: string) => `ws_${workspaceId.replace(/[^0-9A-Za-z]/g, '')}`;
const quoted = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Arrow is loaded with LanceDB (in AWS both come from the LanceDB layer, one copy, so LanceDB recognises the schema). */
type Arrow = typeof ArrowModule;

function schemaOf({ Field, FixedSizeList, Float32, Schema, Utf8 }: Arrow, dimensions: number | undefined): ArrowModule.Schema {
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

function ftsConfig(language: IndexLanguage) {
  if (language === 'ngram') return { baseTokenizer: 'ngram' as const, ngramMinLength: 1, ngramMaxLength: 2, lowercase: true, stem: false, removeStopWords: false, asciiFolding: false };
  if (language === 'neutral') return { baseTokenizer: 'simple' as const, lowercase: true, stem: false, removeStopWords: false, asciiFolding: false };
  return { baseTokenizer: 'simple' as const, language: STEMMER_LANGUAGE[language], lowercase: true, stem: true, removeStopWords: true, asciiFolding: true };
}

/** A row as LanceDB stores it: every text column null but the one of its kind and language. */
function record(row: IndexRow): Record<string, unknown> {
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

/** A candidate of one ranking: which row, and its BM25 score where the ranking is full-text. */
interface Candidate {
  row_id: string;
  document_id: string;
  /** LanceDB's address of the row in the version searched. */
  _rowid: bigint;
  _score?: number;
}

/** A row id is `<document id>#<ordinal or doc>` (knowledge-index.ts): its document and kind need no column read of their own. */
const documentOfRow = (rowId: string) => rowId.slice(0, rowId.lastIndexOf('#'));
const isParentRow = (candidate: Candidate) => candidate.row_id.endsWith('#doc');

/** What a hit shows, read for the fused top rows only. */
interface ShownRow {
  row_id: string;
  source_id: string;
  name: string;
  url: string | null;
  title: string;
  text: string;
}
const SHOWN_COLUMNS = ['row_id', 'source_id', 'name', 'url', 'title', 'text'];

/**
 * LanceDB's answer when another writer committed first and the two cannot be merged (an index build or a compaction
 * against a compaction): the same work on the newer version may succeed. Appends and deletes it retries itself.
 */
const isRetryableConflict = (error: unknown) => error instanceof Error && error.message.includes('Retryable commit conflict');
const CONFLICT_ATTEMPTS = 5;

/** `work` again (after a short random pause, so two writers do not collide again) while it loses to another writer's commit. */
async function retryingConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryableConflict(error) || attempt === CONFLICT_ATTEMPTS) throw error;
      await new Promise((resume) => setTimeout(resume, Math.random() * 50 * attempt));
    }
  }
}

/** One document's new rows (none: it leaves the index), waiting to be written with others. */
interface PendingReplace {
  documentId: string;
  rows: IndexRow[];
  done: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * One workspace's writes, one batch at a time: the documents replaced while a batch is written go together into the
 * next one (one delete, one append, one commit each), so concurrent uploads and crawled pages make few table versions.
 */
class WriteBatcher {
  private readonly pending = new Map<string, PendingReplace[]>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly write: (workspaceId: string, batch: PendingReplace[]) => Promise<void>) {}

  replace(workspaceId: string, documentId: string, rows: IndexRow[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const queue = this.pending.get(workspaceId) ?? [];
      queue.push({ documentId, rows, done: { resolve, reject } });
      this.pending.set(workspaceId, queue);
      if (!this.running.has(workspaceId)) this.running.set(workspaceId, this.drain(workspaceId));
    });
  }

  /** Runs `work` between batches of the workspace (a source's deletion, an optimize). */
  async exclusive<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
    while (this.running.has(workspaceId)) await this.running.get(workspaceId);
    const run = work();
    this.running.set(workspaceId, run.then(() => undefined, () => undefined));
    try {
      return await run;
    } finally {
      this.running.delete(workspaceId);
      if (this.pending.get(workspaceId)?.length) this.running.set(workspaceId, this.drain(workspaceId));
    }
  }

  private async drain(workspaceId: string): Promise<void> {
    for (let batch = this.take(workspaceId); batch.length > 0; batch = this.take(workspaceId)) {
      try {
        await this.write(workspaceId, batch);
        for (const item of batch) item.done.resolve();
      } catch (error) {
        for (const item of batch) item.done.reject(error);
      }
    }
    this.running.delete(workspaceId);
  }

  private take(workspaceId: string): PendingReplace[] {
    const batch = this.pending.get(workspaceId) ?? [];
    this.pending.delete(workspaceId);
    return batch;
  }
}

/** A connection's open tables, one handle per workspace, opened on first use. */
function tableHandles(db: Connection) {
  const tables = new Map<string, Promise<Table | undefined>>();
  return {
    /** The workspace's table, or undefined when it has none yet (a workspace that never indexed anything). */
    existing(workspaceId: string): Promise<Table | undefined> {
      const name = tableName(workspaceId);
      let table = tables.get(name);
      if (!table) {
        table = db.tableNames().then((names) => (names.includes(name) ? db.openTable(name) : undefined));
        tables.set(name, table);
        table.then((opened) => opened ?? tables.delete(name), () => tables.delete(name));
      }
      return table;
    },
    opened(workspaceId: string, table: Table): void {
      tables.set(tableName(workspaceId), Promise.resolve(table));
    },
  };
}

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

  async function created(workspaceId: string): Promise<Table> {
    const table = await existing(workspaceId);
    if (table) return table;
    const made = await db.createEmptyTable(tableName(workspaceId), schemaOf(arrow, options.dimensions), { existOk: true });
    tables.opened(workspaceId, made);
    return made;
  }

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

  /**
   * A table written before the kinds shared a column gets the shared columns (each the value of its two old ones) with
   * their full-text indexes, and loses the old ones: once, by the first process to open it after the upgrade. Another
   * process doing the same at the same moment loses the commit race and finds the work done.
   */
  async function mergeKindColumns(table: Table): Promise<void> {
    const oldColumns = async () => (await table.schema()).fields.map((field) => field.name).filter((name) => KIND_COLUMN.test(name));
    const old = await oldColumns();
    if (old.length === 0) return;
    try {
      const names = new Set((await table.schema()).fields.map((field) => field.name));
      const added = INDEX_LANGUAGES.filter((language) => !names.has(textColumn(language)));
      if (added.length > 0) await table.addColumns(added.map((language) => ({ name: textColumn(language), valueSql: `coalesce(parent_${language}, passage_${language})` })));
      for (const language of INDEX_LANGUAGES) {
        const column = textColumn(language);
        if ((await table.countRows(`${column} IS NOT NULL`)) > 0) await retryingConflicts(() => table.createIndex(column, { config: lancedb.Index.fts(ftsConfig(language)) }));
      }
      await table.dropColumns(old);
    } catch (error) {
      await table.checkoutLatest();
      if ((await oldColumns()).length > 0) throw error;
    }
    await indexedColumns(table, true);
  }
  const upgrades = new Map<string, Promise<void>>();
  /** The workspace's table in the current layout (none is fine: a new one is made so). */
  function upgraded(workspaceId: string): Promise<void> {
    let upgrade = upgrades.get(workspaceId);
    if (!upgrade) {
      upgrade = existing(workspaceId).then((table) => table && mergeKindColumns(table));
      upgrades.set(workspaceId, upgrade);
      upgrade.catch(() => upgrades.delete(workspaceId));
    }
    return upgrade;
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
      await table.delete(`document_id IN (${ids.slice(at, at + DELETE_IDS_AT_ONCE).map(quoted).join(', ')})`);
    }
    if (rows.length > 0) {
      await table.add(rows.map(record));
      await ensureIndexes(table, rows);
    }
    if (rows.length > 0) await maybeOptimize(table);
  }
  const writes = new WriteBatcher(writeBatch);

  /**
   * One ranking's candidates: their row ids, addresses and scores only (no text: most candidates are dropped by the
   * fusion, and on S3 each column read for them is more requests).
   */
  async function ranking(table: Table, column: string, query: IndexQuery, limit: number, vector?: number[]): Promise<Candidate[]> {
    let search = vector ? table.vectorSearch(vector).column('vector') : table.query().fullTextSearch(query.text, { columns: [column] });
    if (query.sourceIds) search = search.where(`source_id IN (${query.sourceIds.map(quoted).join(', ')})`);
    const rows = (await search.select(['row_id', vector ? '_distance' : '_score']).withRowId().limit(limit).toArray()) as Omit<Candidate, 'document_id'>[];
    return rows.map((row) => ({ ...row, document_id: documentOfRow(row.row_id) }));
  }

  /**
   * The shown columns of the fused rows, taken by their addresses in the version the search read. Another search of
   * this process may have moved the table to a newer version since, where an address can hold another row after a
   * compaction: such a row is left out (the next search finds it again).
   */
  async function shown(table: Table, rows: Candidate[]): Promise<Map<string, ShownRow>> {
    if (rows.length === 0) return new Map();
    const taken = (await table.takeRowIds(rows.map((row) => row._rowid)).select(SHOWN_COLUMNS).toArray()) as ShownRow[];
    const wanted = new Set(rows.map((row) => row.row_id));
    return new Map(taken.filter((row) => wanted.has(row.row_id)).map((row) => [row.row_id, row]));
  }

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
      const limit = Math.max(50, query.limit * CANDIDATES_PER_RESULT);
      const columns = [...(await indexedColumns(table))].filter((column) => TEXT_COLUMNS.includes(column));
      const fused = async (searched: string[], withVector: boolean) => {
        const rankings: Ranking<Candidate>[][] = await Promise.all([
          // A language column's one BM25 ranking, split by kind: the parents' ranking and the passages'.
          ...searched.map(async (column) => {
            const rows = await ranking(table, column, query, limit * 2);
            return [
              { weight: 1, passages: false, rows: rows.filter(isParentRow) },
              { weight: PASSAGE_WEIGHT, passages: true, rows: rows.filter((row) => !isParentRow(row)) },
            ];
          }),
          ...(withVector && query.vector ? [ranking(table, 'vector', query, limit, query.vector).then((rows) => [{ weight: 1, passages: true, rows }])] : []),
        ]);
        return fuseByReciprocalRank(rankings.flat(), RRF_K, query.limit);
      };
      // Ranks are comparable within one language only (a small language's first hit would tie with a large one's):
      // a question recognisably in one language ranks that language's documents; the others follow if room is left.
      const language = await indexLanguageOf(query.text);
      const own = language === 'neutral' ? [] : columns.filter((column) => column.endsWith(`_${language}`));
      const hits = await fused(own.length > 0 ? own : columns, true);
      if (own.length > 0 && hits.length < query.limit) {
        const found = new Set(hits.map((hit) => hit.row.document_id));
        const others = (await fused(columns.filter((column) => !own.includes(column)), false)).filter((hit) => !found.has(hit.row.document_id));
        hits.push(...others.slice(0, query.limit - hits.length));
      }
      const rows = await shown(table, hits.map((hit) => hit.row));
      return hits.flatMap(({ row, score }): IndexHit[] => {
        const show = rows.get(row.row_id);
        return show ? [{ documentId: row.document_id, sourceId: show.source_id, name: show.name, url: show.url, title: show.title, text: show.text, score }] : [];
      });
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
