import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { randomBase62 } from '@service/shared';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { openLanceIndex } from '../lambdas/src/infra/search/lance-index';
import type { IndexRow } from '../lambdas/src/infra/search/knowledge-index';
import { figuresOf, formatFigures } from './measure';

/**
 * Knowledge: quality on BEIR SciFact (`../shared/corpora/scifact`, read in place, never copied: measurement only),
 * every abstract uploaded through POST knowledge/document_upload and every question asked through POST
 * knowledge/search, beside MiniSearch with its defaults on the same corpus in the same run; then search latency at
 * 10,000 and 100,000 passages (the index alone, no HTTP) beside MiniSearch's on the same passages.
 */
export const SCIFACT = new URL('../../shared/corpora/scifact/', import.meta.url);

interface Abstract {
  _id: string;
  title: string;
  text: string;
}
export interface Query {
  _id: string;
  text: string;
}

export const lines = <T>(file: string): T[] =>
  readFileSync(new URL(file, SCIFACT), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);

function qrels(): Map<string, Map<string, number>> {
  const relevant = new Map<string, Map<string, number>>();
  for (const line of readFileSync(new URL('qrels-test.tsv', SCIFACT), 'utf8').trim().split('\n').slice(1)) {
    const [query, doc, score] = line.split('\t');
    if (!relevant.has(query!)) relevant.set(query!, new Map());
    relevant.get(query!)!.set(doc!, Number(score));
  }
  return relevant;
}

/** nDCG@10 and Recall@100 of rankings (corpus ids, best first) against the judgements, averaged over the judged queries. */
function quality(rankings: Map<string, string[]>, judged: Map<string, Map<string, number>>): { ndcg10: number; recall100: number } {
  let ndcg = 0;
  let recall = 0;
  for (const [query, relevant] of judged) {
    const ranked = [...new Set(rankings.get(query) ?? [])];
    const dcg = ranked.slice(0, 10).reduce((sum, id, at) => sum + (relevant.get(id) ?? 0) / Math.log2(at + 2), 0);
    const ideal = [...relevant.values()].sort((a, b) => b - a).slice(0, 10).reduce((sum, gain, at) => sum + gain / Math.log2(at + 2), 0);
    ndcg += dcg / ideal;
    recall += ranked.slice(0, 100).filter((id) => relevant.has(id)).length / relevant.size;
  }
  return { ndcg10: ndcg / judged.size, recall100: recall / judged.size };
}

async function inParallel<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

export const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};

async function scifactQuality(): Promise<string[]> {
  const corpus = lines<Abstract>('corpus.jsonl');
  const queries = lines<Query>('queries.jsonl');
  const judged = qrels();
  const key = `sk_live_${randomBase62(40)}`;
  const platform = await startPlatform({ port: 0, env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' } });
  try {
    const call = async <T>(path: string, body: unknown): Promise<T> => {
      const response = await fetch(`${platform.apiBaseUrl}/${path}/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-api-key': key }, body: JSON.stringify(body) });
      const answer = (await response.json()) as { data: T };
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`);
      return answer.data;
    };
    const { source } = await call<{ source: { id: string } }>('knowledge/source_create', { type: 'files', name: 'SciFact' });
    const corpusIdOf = new Map<string, string>();
    const [, uploadMs] = await timed(() =>
      inParallel(corpus, 8, async (abstract) => {
        // One document per abstract, its title as the Markdown heading.
        const { document } = await call<{ document: { id: string } }>('knowledge/document_upload', { source_id: source.id, name: `${abstract._id}.md`, content_type: 'text/markdown', content: `# ${abstract.title}\n\n${abstract.text}` });
        corpusIdOf.set(document.id, abstract._id);
      }),
    );
    const ours = new Map<string, string[]>();
    const latencies: number[] = [];
    const [, searchMs] = await timed(async () => {
      for (const query of queries.filter((q) => judged.has(q._id))) {
        const [{ results }, ms] = await timed(() => call<{ results: { document_id: string }[] }>('knowledge/search', { query: query.text, limit: 100 }));
        latencies.push(ms);
        ours.set(query._id, results.map((result) => corpusIdOf.get(result.document_id)!));
      }
    });

    const mini = new MiniSearch<Abstract>({ idField: '_id', fields: ['title', 'text'] });
    const [, miniIndexMs] = await timed(async () => mini.addAll(corpus));
    const theirs = new Map<string, string[]>();
    const miniLatencies: number[] = [];
    for (const query of queries.filter((q) => judged.has(q._id))) {
      const [hits, ms] = await timed(async () => mini.search(query.text).slice(0, 100));
      miniLatencies.push(ms);
      theirs.set(query._id, hits.map((hit) => String(hit.id)));
    }
    const a = quality(ours, judged);
    const b = quality(theirs, judged);
    const line = (label: string, q: { ndcg10: number; recall100: number }) => `${label.padEnd(64)} nDCG@10 ${q.ndcg10.toFixed(4)}   Recall@100 ${q.recall100.toFixed(4)}`;
    return [
      `SciFact test split: ${corpus.length} abstracts, ${judged.size} judged questions`,
      line('knowledge/search (LanceDB full-text, parent + passages, RRF)', a),
      line('MiniSearch 7 defaults (title + text), same run', b),
      `quality target: nDCG@10 >= 0.69 (${a.ndcg10 >= 0.69 ? 'met' : 'NOT met'}); ahead of MiniSearch by ${(a.ndcg10 - b.ndcg10).toFixed(4)}`,
      `indexing through knowledge/document_upload (HTTP, 8 in flight): ${(corpus.length / (uploadMs / 1000)).toFixed(1)} documents/s (${(uploadMs / 1000).toFixed(1)} s); MiniSearch addAll in memory: ${(corpus.length / (miniIndexMs / 1000)).toFixed(0)} documents/s`,
      formatFigures(figuresOf('knowledge/search over HTTP, limit 100', latencies, searchMs / 1000)),
      formatFigures(figuresOf('MiniSearch search (in process), top 100', miniLatencies, miniLatencies.reduce((s, v) => s + v, 0) / 1000)),
    ];
  } finally {
    await platform.stop();
  }
}

/** Passages of the size the product makes (~ up to 1,000 characters) cut from the abstracts, `count` of them, cycling through the corpus with a varying suffix so each is distinct. */
function passages(count: number): { id: string; title: string; text: string }[] {
  const corpus = lines<Abstract>('corpus.jsonl');
  const pieces = corpus.flatMap((abstract) => (abstract.text.match(/[\s\S]{1,800}(\s|$)/g) ?? [abstract.text]).map((text) => ({ title: abstract.title, text: text.trim() })));
  return Array.from({ length: count }, (_, at) => ({ id: `p${at}`, title: pieces[at % pieces.length]!.title, text: `${pieces[at % pieces.length]!.text} v${Math.floor(at / pieces.length)}` }));
}

/** `count` passages as documents of three passages each, with the parent row every document has (infra/search/lance-index.ts). */
export function benchDocuments(count: number): Map<string, IndexRow[]> {
  const all = passages(count);
  const documents = new Map<string, IndexRow[]>();
  for (let at = 0; at < all.length; at += 3) {
    const group = all.slice(at, at + 3);
    const documentId = `doc_${at}`;
    const base = { documentId, sourceId: 'src_bench', name: documentId, url: null, title: group[0]!.title, language: 'en' as const };
    documents.set(documentId, [
      { ...base, rowId: `${documentId}#doc`, kind: 'parent', searchText: `${group[0]!.title}\n${group.map((p) => p.text).join('\n')}`, text: group[0]!.text },
      ...group.map((passage, n): IndexRow => ({ ...base, rowId: `${documentId}#${n}`, kind: 'passage', searchText: `${passage.title}\n${passage.text}`, text: passage.text })),
    ]);
  }
  return documents;
}

/** Search latency of the index at `count` passages (one parent row per 3 passages, as documents have), beside MiniSearch on the same passages. */
async function searchSpeed(count: number, queries: Query[]): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-knowledge-'));
  const index = await openLanceIndex(folder);
  const workspaceId = '00000000-0000-4000-8000-00000000b001';
  try {
    const all = passages(count);
    const documents = benchDocuments(count);
    const rows = [...documents.values()].reduce((sum, list) => sum + list.length, 0);
    // Replaced all at once: the index writes them in batches of its own.
    const [, indexMs] = await timed(async () => {
      await Promise.all([...documents].map(([id, list]) => index.replaceDocument(workspaceId, id, list)));
      await index.optimize(workspaceId);
    });
    const mini = new MiniSearch<{ id: string; title: string; text: string }>({ fields: ['title', 'text'] });
    mini.addAll(all);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (const query of queries) {
      ours.push((await timed(() => index.search(workspaceId, { text: query.text, limit: 5 })))[1]);
      theirs.push((await timed(async () => mini.search(query.text).slice(0, 5)))[1]);
    }
    const sum = (values: number[]) => values.reduce((s, v) => s + v, 0) / 1000;
    return [
      `${count.toLocaleString('en')} passages (${rows.toLocaleString('en')} rows with parents), indexed in ${(indexMs / 1000).toFixed(1)} s`,
      formatFigures(figuresOf(`  LanceDB index search, top 5 (${count / 1000}k)`, ours, sum(ours))),
      formatFigures(figuresOf(`  MiniSearch search, top 5 (${count / 1000}k)`, theirs, sum(theirs))),
    ];
  } finally {
    index.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

export async function benchKnowledge(): Promise<string[]> {
  if (!existsSync(SCIFACT)) return ['skipped: ../shared/corpora/scifact is not beside the repository'];
  const queries = lines<Query>('queries.jsonl');
  const printed: string[] = [];
  // Each part's figures are shown as they come (the section takes minutes), and returned together for the file.
  const part = (figures: string[]) => {
    for (const figure of figures) process.stderr.write(`${figure}\n`);
    printed.push(...figures);
  };
  part(await scifactQuality());
  part(['search latency, one question at a time (targets: p50 <= 10 ms at 10k, <= 30 ms at 100k):']);
  part(await searchSpeed(10_000, queries));
  part(await searchSpeed(100_000, queries));
  return printed;
}
