/** One ranking to fuse: rows best first; `passages` when its rows are passages (one document may come several times). */
export interface Ranking<R extends FusedRow> {
  weight: number;
  passages: boolean;
  rows: R[];
}

/** A row of a ranking: its document, and its full-text score where the ranking has one (a vector ranking has none). */
export interface FusedRow {
  document_id: string;
  _score?: number;
}

/**
 * A document's other passages are answered too when they score at least this share of its best passage's full-text
 * score (a page whose title matches every section has several sections close together: the one that answers the
 * question need not be the one that scored best), at most `MAX_EXTRA_PASSAGES` of them.
 */
export const CLOSE_PASSAGE_SHARE = 0.9;
const MAX_EXTRA_PASSAGES = 2;

interface Entry<R> {
  score: number;
  row: R;
  rowWeight: number;
  fromPassage: boolean;
  /** The document's rows in the passage ranking its answered row came from, best first. */
  siblings: R[];
}

/**
 * Reciprocal rank fusion (Cormack et al. 2009) of rankings of documents: a document scores Σ weight / (k + rank) over
 * the rankings it is in, its rank in a passage ranking being that of its best passage. Each document is answered with
 * its best passage (from the passage ranking that counts most for it; a document found only as a whole is answered with
 * its parent row, which shows its first passage), followed by its passages that score close to that one. Scores are
 * scaled so that first place in every ranking is 1; a close passage scores its document's score times its share.
 */
export function fuseByReciprocalRank<R extends FusedRow>(rankings: Ranking<R>[], k: number, limit: number): { row: R; score: number }[] {
  const fused = new Map<string, Entry<R>>();
  for (const ranking of rankings) {
    let rank = 0;
    const byDocument = new Map<string, R[]>();
    for (const row of ranking.rows) {
      const rows = byDocument.get(row.document_id);
      if (rows) {
        rows.push(row);
        continue;
      }
      byDocument.set(row.document_id, [row]);
      rank += 1;
      const contribution = ranking.weight / (k + rank);
      const entry = fused.get(row.document_id);
      if (!entry) {
        fused.set(row.document_id, { score: contribution, row, rowWeight: contribution, fromPassage: ranking.passages, siblings: [] });
        continue;
      }
      entry.score += contribution;
      // A passage shows better what matched than the parent's first passage does.
      if (ranking.passages && (!entry.fromPassage || contribution > entry.rowWeight)) Object.assign(entry, { row, rowWeight: contribution, fromPassage: true });
    }
    if (!ranking.passages) continue;
    for (const [documentId, rows] of byDocument) {
      const entry = fused.get(documentId)!;
      if (entry.row === rows[0]) entry.siblings = rows;
    }
  }
  const best = rankings.reduce((sum, ranking) => sum + (ranking.rows.length > 0 ? ranking.weight / (k + 1) : 0), 0);
  const scaled = (score: number) => Math.round((score / best) * 10_000) / 10_000;
  return [...fused.values()]
    .flatMap((entry) => [
      { row: entry.row, score: entry.score },
      ...closePassages(entry).map((close) => ({ row: close.row, score: entry.score * close.share })),
    ])
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ row, score }) => ({ row, score: scaled(score) }));
}

/** The document's other passages scoring close to its answered one, with their share of its full-text score. */
function closePassages<R extends FusedRow>(entry: Entry<R>): { row: R; share: number }[] {
  const top = entry.row._score;
  if (!entry.fromPassage || top === undefined || top <= 0 || entry.siblings[0] !== entry.row) return [];
  return entry.siblings
    .slice(1)
    .map((row) => ({ row, share: (row._score ?? 0) / top }))
    .filter((close) => close.share >= CLOSE_PASSAGE_SHARE)
    .slice(0, MAX_EXTRA_PASSAGES);
}
