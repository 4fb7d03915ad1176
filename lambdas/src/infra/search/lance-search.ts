import type { Table } from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import type { IndexHit, IndexQuery } from './knowledge-index';
import { quoted, TEXT_COLUMNS } from './lance-schema';
import { indexLanguageOf } from './language';
import { fuseByReciprocalRank, type Ranking } from './rank-fusion';

/** RRF's k (the usual 60) and the passages' weight against the parents' (the best of the weights tried on SciFact). */
export const RRF_K = 60;
export const PASSAGE_WEIGHT = 0.5;
/** How many candidates each ranking contributes before fusion, per result asked for (at least 50). */
const CANDIDATES_PER_RESULT = 3;

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
 * One ranking's candidates: their row ids, addresses and scores only (no text: most candidates are dropped by the
 * fusion, and on S3 each column read for them is more requests).
 */
async function ranking(table: Table, column: string, query: IndexQuery, limit: number, vector?: number[]): Promise<Candidate[]> {
  let search = vector ? table.vectorSearch(vector).column('vector') : table.query().fullTextSearch(query.text, { columns: [column] });
  if (query.sourceIds) search = search.where(`source_id IN (${query.sourceIds.map(quoted).join(', ')})`);
  const found = await search
    .select(['row_id', vector ? '_distance' : '_score'])
    .withRowId()
    .limit(limit)
    .toArrow();
  // Read by column: Arrow's row objects cost more than the query itself at a few hundred candidates.
  const ids = columnOf<string>(found, 'row_id');
  const addresses = columnOf<bigint>(found, '_rowid');
  const scores = vector ? undefined : columnOf<number>(found, '_score');
  return ids.map((rowId, at) => ({ row_id: rowId, document_id: documentOfRow(rowId), _rowid: addresses[at]!, ...(scores ? { _score: scores[at]! } : {}) }));
}

/** One column of a query's result as plain values. */
const columnOf = <T>(table: ArrowTable, name: string): T[] => Array.from((table.getChild(name)?.toArray() ?? []) as ArrayLike<T>);

/**
 * The shown columns of the fused rows, taken by their addresses in the version the search read. Another search of
 * this process may have moved the table to a newer version since, where an address can hold another row after a
 * compaction: such a row is left out (the next search finds it again).
 */
async function shown(table: Table, rows: Candidate[]): Promise<Map<string, ShownRow>> {
  if (rows.length === 0) return new Map();
  const taken = await table
    .takeRowIds(rows.map((row) => row._rowid))
    .select(SHOWN_COLUMNS)
    .toArrow();
  const [ids, sourceIds, names, urls, titles, texts] = SHOWN_COLUMNS.map((column) => columnOf<string | null>(taken, column));
  const wanted = new Set(rows.map((row) => row.row_id));
  const shownRows = new Map<string, ShownRow>();
  ids!.forEach((rowId, at) => {
    if (rowId && wanted.has(rowId))
      shownRows.set(rowId, { row_id: rowId, source_id: sourceIds![at]!, name: names![at]!, url: urls![at] ?? null, title: titles![at]!, text: texts![at]! });
  });
  return shownRows;
}

/**
 * One search of a table at the version it was checked out at: each language column's BM25 ranking split by kind (and
 * the passages' vector ranking where rows carry embeddings), fused, then the shown columns of the top rows read.
 */
export async function searchTable(table: Table, query: IndexQuery, indexed: Set<string>): Promise<IndexHit[]> {
  const columns = [...indexed].filter((column) => TEXT_COLUMNS.includes(column));
  const limit = Math.max(50, query.limit * CANDIDATES_PER_RESULT);
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
  const language = query.language ?? (await indexLanguageOf(query.text));
  const own = language === 'neutral' ? [] : columns.filter((column) => column.endsWith(`_${language}`));
  const hits = await fused(own.length > 0 ? own : columns, true);
  if (own.length > 0 && hits.length < query.limit) {
    const found = new Set(hits.map((hit) => hit.row.document_id));
    const others = (
      await fused(
        columns.filter((column) => !own.includes(column)),
        false,
      )
    ).filter((hit) => !found.has(hit.row.document_id));
    hits.push(...others.slice(0, query.limit - hits.length));
  }
  const rows = await shown(
    table,
    hits.map((hit) => hit.row),
  );
  return hits.flatMap(({ row, score }): IndexHit[] => {
    const show = rows.get(row.row_id);
    return show ? [{ documentId: row.document_id, sourceId: show.source_id, name: show.name, url: show.url, title: show.title, text: show.text, score }] : [];
  });
}
