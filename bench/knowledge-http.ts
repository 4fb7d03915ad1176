import { existsSync } from 'node:fs';
import { connect } from '@lancedb/lancedb';
import { randomBase62 } from '@service/shared';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { tableName } from '../lambdas/src/infra/search/lance-schema';
import { benchDocuments, lines, SCIFACT, type Query } from './knowledge';
import { startDynaliteProcess } from './dynalite-process';
import { formatFigures, measureInTurns } from './measure';

/** How many passages the table holds (as documents of three, each with its parent row), and the questions asked. */
const PASSAGES = 10_000;
const QUESTIONS = 300;
/** Alternating rounds of 10 questions a side: a shared machine's load drifts within seconds. */
const ROUNDS = 60;
/** knowledge/search over HTTP within this many times LanceDB's own query of the same table, by p50 (issue 40). */
const TARGET_RATIO = 3;

/**
 * knowledge/search over HTTP with `limit: 100` beside LanceDB's own full-text query (limit 100, the text read) of the
 * same workspace table, one question at a time in alternating rounds: what the platform adds to the library's query
 * (the API key, the sources read, the question's language, the fused rankings, the shown columns, the JSON).
 */
export async function benchKnowledgeHttp(): Promise<string[]> {
  if (!existsSync(SCIFACT)) return ['skipped: ../shared/corpora/scifact is not beside the repository'];
  const questions = lines<Query>('queries.jsonl').slice(0, QUESTIONS);
  const key = `sk_live_${randomBase62(40)}`;
  // The store in a process of its own, as DynamoDB is beside a Lambda (in one process its work would count as the API's).
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({ port: 0, dynamoEndpoint: dynalite.endpoint, env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' } });
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
  try {
    const { source } = await call<{ source: { id: string } }>('knowledge/source_create', { type: 'files', name: 'SciFact passages' });
    // The rows written into the platform's own index (uploading them over HTTP would take minutes and measure nothing here).
    const { index } = await platform.deps.knowledge!();
    const workspaceId = platform.demo.workspaceId;
    const documents = benchDocuments(PASSAGES);
    await Promise.all(
      [...documents].map(([id, rows]) =>
        index.replaceDocument(
          workspaceId,
          id,
          rows.map((row) => ({ ...row, sourceId: source.id })),
        ),
      ),
    );
    await index.optimize(workspaceId);
    const db = await connect(platform.deps.config.knowledgeIndexUri!);
    const table = await db.openTable(tableName(workspaceId));
    let asked = 0;
    let queried = 0;
    const found = { http: 0, lance: 0 };
    // Warm both: the language detector loads, the index's files are read once.
    await call('knowledge/search', { query: questions[0]!.text, limit: 100 });
    await table
      .query()
      .fullTextSearch(questions[0]!.text, { columns: ['text_en'] })
      .limit(100)
      .toArray();
    const { baseline, candidate } = await measureInTurns(
      { baseline: "  LanceDB's own full-text query, limit 100", candidate: '  knowledge/search over HTTP, limit 100' },
      {
        baseline: async () => {
          const rows = await table
            .query()
            .fullTextSearch(questions[queried++ % questions.length]!.text, { columns: ['text_en'] })
            .select(['document_id', 'text', '_score'])
            .limit(100)
            .toArray();
          found.lance += rows.length;
        },
        candidate: async () => {
          const { results } = await call<{ results: unknown[] }>('knowledge/search', { query: questions[asked++ % questions.length]!.text, limit: 100 });
          found.http += results.length;
        },
      },
      QUESTIONS * 2,
      1,
      ROUNDS,
    );
    db.close();
    const ratio = candidate.p50Ms / baseline.p50Ms;
    return [
      `${PASSAGES.toLocaleString('en')} SciFact passages in one workspace table (with their parent rows), ${QUESTIONS} questions, one at a time, ${ROUNDS} alternating rounds:`,
      formatFigures(baseline),
      formatFigures(candidate),
      `  results per question: ${(found.http / candidate.count).toFixed(1)} over HTTP, ${(found.lance / baseline.count).toFixed(1)} from LanceDB`,
      `knowledge/search over HTTP vs LanceDB's own query by p50: ${ratio.toFixed(2)}x (target ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'})`,
    ];
  } finally {
    await platform.stop();
    await dynalite.stop();
  }
}
