/** One ranking to fuse: rows best first; `passages` when its rows are passages (one document may come several times). */
export interface Ranking<R extends { document_id: string }> {
  weight: number;
  passages: boolean;
  rows: R[];
}

/**
 * Reciprocal rank fusion (Cormack et al. 2009) of rankings of documents: a document scores Σ weight / (k + rank) over
 * the rankings it is in, its rank in a passage ranking being that of its best passage. Each document is answered with
 * its best passage (from the passage ranking that counts most for it; a document found only as a whole is answered with
 * its parent row, which shows its first passage). Scores are scaled so that first place in every ranking is 1.
 */
export function fuseByReciprocalRank<R extends { document_id: string }>(rankings: Ranking<R>[], k: number, limit: number): { row: R; score: number }[] {
  const fused = new Map<string, { score: number; row: R; rowWeight: number; fromPassage: boolean }>();
  for (const ranking of rankings) {
    let rank = 0;
    const seen = new Set<string>();
    for (const row of ranking.rows) {
      if (seen.has(row.document_id)) continue;
      seen.add(row.document_id);
      rank += 1;
      const contribution = ranking.weight / (k + rank);
      const entry = fused.get(row.document_id);
      if (!entry) {
        fused.set(row.document_id, { score: contribution, row, rowWeight: contribution, fromPassage: ranking.passages });
        continue;
      }
      entry.score += contribution;
      // A passage shows better what matched than the parent's first passage does.
      if (ranking.passages && (!entry.fromPassage || contribution > entry.rowWeight)) Object.assign(entry, { row, rowWeight: contribution, fromPassage: true });
    }
  }
  const best = rankings.reduce((sum, ranking) => sum + (ranking.rows.length > 0 ? ranking.weight / (k + 1) : 0), 0);
  return [...fused.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ row, score }) => ({ row, score: Math.round((score / best) * 10_000) / 10_000 }));
}
