import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';
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
    const ideal = [...relevant.values()]
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((sum, gain, at) => sum + gain / Math.log2(at + 2), 0);
    ndcg += dcg / ideal;
    recall += ranked.slice(0, 100).filter((id) => relevant.has(id)).length / relevant.size;
  }
  return { ndcg10: ndcg / judged.size, recall100: recall / judged.size };
}

async function inParallel<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
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
      const response = await fetch(`${platform.apiBaseUrl}/${path}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-api-key': key },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { data: T };
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`);
      return answer.data;
    };
    const { source } = await call<{ source: { id: string } }>('knowledge/source_create', { type: 'files', name: 'SciFact' });
    const corpusIdOf = new Map<string, string>();
    const [, uploadMs] = await timed(() =>
      inParallel(corpus, 8, async (abstract) => {
        // One document per abstract, its title as the Markdown heading.
        const { document } = await call<{ document: { id: string } }>('knowledge/document_upload', {
          source_id: source.id,
          name: `${abstract._id}.md`,
          content_type: 'text/markdown',
          content: `# ${abstract.title}\n\n${abstract.text}`,
        });
        corpusIdOf.set(document.id, abstract._id);
      }),
    );
    const ours = new Map<string, string[]>();
    const latencies: number[] = [];
    const [, searchMs] = await timed(async () => {
      for (const query of queries.filter((q) => judged.has(q._id))) {
        const [{ results }, ms] = await timed(() => call<{ results: { document_id: string }[] }>('knowledge/search', { query: query.text, limit: 100 }));
        latencies.push(ms);
        ours.set(
          query._id,
          results.map((result) => corpusIdOf.get(result.document_id)!),
        );
      }
    });

    const mini = new MiniSearch<Abstract>({ idField: '_id', fields: ['title', 'text'] });
    const [, miniIndexMs] = await timed(async () => mini.addAll(corpus));
    const theirs = new Map<string, string[]>();
    const miniLatencies: number[] = [];
    for (const query of queries.filter((q) => judged.has(q._id))) {
      const [hits, ms] = await timed(async () => mini.search(query.text).slice(0, 100));
      miniLatencies.push(ms);
      theirs.set(
        query._id,
        hits.map((hit) => String(hit.id)),
      );
    }
    const a = quality(ours, judged);
    const b = quality(theirs, judged);
    const line = (label: string, q: { ndcg10: number; recall100: number }) =>
      `${label.padEnd(64)} nDCG@10 ${q.ndcg10.toFixed(4)}   Recall@100 ${q.recall100.toFixed(4)}`;
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
  const pieces = corpus.flatMap((abstract) =>
    (abstract.text.match(/[\s\S]{1,800}(\s|$)/g) ?? [abstract.text]).map((text) => ({ title: abstract.title, text: text.trim() })),
  );
  return Array.from({ length: count }, (_, at) => ({
    id: `p${at}`,
    title: pieces[at % pieces.length]!.title,
    text: `${pieces[at % pieces.length]!.text} v${Math.floor(at / pieces.length)}`,
  }));
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
      ...group.map((passage, n): IndexRow => ({
        ...base,
        rowId: `${documentId}#${n}`,
        kind: 'passage',
        searchText: `${passage.title}\n${passage.text}`,
        text: passage.text,
      })),
    ]);
  }
  return documents;
}

/**
 * Search latency of the index at `count` passages (one parent row per 3 passages, as documents have), beside the
 * library's own figure on the same table (one LanceDB full-text query of the text column, nothing fused: the floor
 * our search stands on) and MiniSearch on the same passages.
 */
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
    const db = await connect(folder);
    const table = await db.openTable(`ws_${workspaceId.replace(/[^0-9A-Za-z]/g, '')}`);
    const ours: number[] = [];
    const lance: number[] = [];
    const theirs: number[] = [];
    // Each engine's questions in a block of their own: MiniSearch's garbage (it allocates per question) is collected
    // during its own block, not during the next engine's search.
    for (const query of queries) ours.push((await timed(() => index.search(workspaceId, { text: query.text, limit: 5 })))[1]);
    for (const query of queries)
      lance.push(
        (
          await timed(() =>
            table
              .query()
              .fullTextSearch(query.text, { columns: ['text_en'] })
              .select(['document_id', 'text', '_score'])
              .limit(5)
              .toArray(),
          )
        )[1],
      );
    for (const query of queries) theirs.push((await timed(async () => mini.search(query.text).slice(0, 5)))[1]);
    db.close();
    const sum = (values: number[]) => values.reduce((s, v) => s + v, 0) / 1000;
    return [
      `${count.toLocaleString('en')} passages (${rows.toLocaleString('en')} rows with parents), indexed in ${(indexMs / 1000).toFixed(1)} s`,
      formatFigures(figuresOf(`  knowledge index search, top 5 (${count / 1000}k)`, ours, sum(ours))),
      formatFigures(figuresOf(`  LanceDB alone: one full-text query (${count / 1000}k)`, lance, sum(lance))),
      formatFigures(figuresOf(`  MiniSearch search, top 5 (${count / 1000}k)`, theirs, sum(theirs))),
    ];
  } finally {
    index.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

const CHAT_QUESTION = 'How much does the Partner plan cost?';
/** The widget allows 20 messages a minute from one address: the two sides share them. */
const CHAT_SAMPLES_PER_SIDE = 9;

/** Milliseconds from the widget's chat request to its first `delta` event (the first words the visitor sees). */
async function firstToken(url: string, agentId: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/agents/${agentId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
    body: JSON.stringify({
      conversationId: crypto.randomUUID(),
      visitorId: crypto.randomUUID(),
      locale: 'en',
      messages: [{ role: 'user', content: CHAT_QUESTION }],
    }),
  });
  if (!response.ok || !response.body) throw new Error(`chat answered ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      seen += decoder.decode(read.value, { stream: true });
      if (/^event: delta$/m.test(seen)) return performance.now() - started;
    }
  } finally {
    await reader.cancel();
  }
  throw new Error(`the reply ended without text: ${seen.slice(0, 300)}`);
}

/**
 * The widget's time to first token for the demo agent (the offline model, the demo seed's pricing page as knowledge),
 * with the knowledge skill granted to visitors (the default: the reply searches first) and with it revoked.
 */
async function widgetFirstToken(): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const platform = await startPlatform({ port: 0, env: { SERVICE_DEMO_API_KEY: key } });
  try {
    const grant = async (path: 'grants/create' | 'grants/revoke') => {
      const response = await fetch(`${platform.apiBaseUrl}/${path}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-api-key': key },
        body: JSON.stringify({ role: 'public', capability: 'knowledge.search' }),
      });
      if (!response.ok && response.status !== 409) throw new Error(`${path} answered ${response.status}`);
    };
    const side = async (label: string) => {
      const latencies: number[] = [];
      for (let at = 0; at < CHAT_SAMPLES_PER_SIDE; at++) latencies.push(await firstToken(platform.url, platform.demo.agentId));
      return formatFigures(figuresOf(label, latencies, latencies.reduce((sum, ms) => sum + ms, 0) / 1000));
    };
    await firstToken(platform.url, platform.demo.agentId); // warm-up: the index opens, the model's modules load
    const on = await side('  knowledge on (searches, then answers)');
    await grant('grants/revoke');
    const off = await side('  knowledge off (skill revoked)');
    await grant('grants/create');
    return [`widget time to first token, offline model, "${CHAT_QUESTION}" (${CHAT_SAMPLES_PER_SIDE} each, one at a time):`, on, off];
  } finally {
    await platform.stop();
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
  part(await widgetFirstToken());
  return printed;
}
