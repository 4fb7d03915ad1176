import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FUNCTIONS } from '../cdk/lib/functions';
import { writeLancedbLayer } from '../cdk/lib/lancedb-layer';
import { startS3, type S3RequestCounts } from '../lambdas/src/entries/bundled/s3';
import { configFromEnv } from '../lambdas/src/infra/config/config';
import { openLanceIndex } from '../lambdas/src/infra/search/lance-index';
import { lanceS3Options } from '../lambdas/src/infra/search/knowledge-stores';
import { AWS_PRICES } from './aws-prices';
import { knowledgeBillLines, type KnowledgeUsage } from './cost-bill';
import { benchDocuments, lines, SCIFACT, timed, type Query } from './knowledge';
import { figuresOf, formatFigures } from './measure';

/**
 * Knowledge as deployed: the index is LanceDB on S3 (here the bundled platform's S3 on loopback, which counts the
 * requests as S3 bills them), `PAGES` pages kept indexed (three passages and a parent row each, SciFact text), then
 * `QUESTIONS` questions searched by a warm function. Priced: the index at rest for a month, the S3 requests and the
 * SkillApi's duration per 1,000 questions; and the cold start the LanceDB layer adds to the functions that open the
 * index (its import in a fresh Node process, median of 5).
 */
const PAGES = 10_000;
const QUESTIONS = 100;
const BUCKET = 'knowledge';
/** The function that answers the knowledge skill's searches (cdk/lib/functions.ts). */
const SEARCH_FUNCTION = { functionId: 'SkillApi', memoryMb: FUNCTIONS.find((fn) => fn.id === 'SkillApi')!.memoryMb };
const COLD_STARTS = 5;

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const money = (value: number) => `$${value.toFixed(value < 0.01 ? 5 : 3)}`;
const folderBytes = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((total, entry) => total + statSync(join(entry.parentPath, entry.name)).size, 0);

/** What indexing `PAGES` pages into LanceDB on S3 and then searching `QUESTIONS` questions did. */
interface KnowledgeOnS3 {
  usage: KnowledgeUsage;
  indexMs: number;
  written: S3RequestCounts;
}

/** `PAGES` pages indexed into LanceDB on the bundled platform's S3, then `QUESTIONS` questions searched by a warm reader, requests counted. */
export async function measureKnowledgeOnS3(): Promise<KnowledgeOnS3> {
  const root = mkdtempSync(join(tmpdir(), 'bench-knowledge-s3-'));
  const s3 = await startS3({ buckets: new Set([BUCKET]), root, policies: { allows: () => true } });
  const config = { ...configFromEnv({ AWS_REGION: AWS_PRICES.region }), s3Endpoint: s3.endpoint };
  const index = await openLanceIndex(`s3://${BUCKET}/index`, {
    storageOptions: lanceS3Options(config, { AWS_ACCESS_KEY_ID: 'LOCALBench', AWS_SECRET_ACCESS_KEY: 'local' }),
  });
  const workspaceId = '00000000-0000-4000-8000-00000000b002';
  try {
    const documents = benchDocuments(PAGES * 3);
    const [, indexMs] = await timed(async () => {
      await Promise.all([...documents].map(([id, rows]) => index.replaceDocument(workspaceId, id, rows)));
      await index.optimize(workspaceId);
    });
    const written = { ...s3.requests };
    const storedBytes = folderBytes(join(root, BUCKET, 'objects'));
    const questions = lines<Query>('queries.jsonl').slice(0, QUESTIONS);
    // Warm: the first search opens the table, as a function's first call after its cold start does.
    await index.search(workspaceId, { text: questions[0]!.text, limit: 5 });
    const before = { ...s3.requests };
    const searchDurationsMs: number[] = [];
    for (const question of questions) searchDurationsMs.push((await timed(() => index.search(workspaceId, { text: question.text, limit: 5 })))[1]);
    const perQuestion = { get: (s3.requests.get - before.get) / questions.length, list: (s3.requests.list - before.list) / questions.length };
    return { usage: { pages: PAGES, storedBytes, perQuestion, searchDurationsMs, searchFunction: SEARCH_FUNCTION }, indexMs, written };
  } finally {
    index.close();
    s3.server.closeAllConnections();
    await new Promise<void>((done) => s3.server.close(() => done()));
    rmSync(root, { recursive: true, force: true });
  }
}

async function indexOnS3(): Promise<string[]> {
  const { usage, indexMs, written } = await measureKnowledgeOnS3();
  const { s3: s3Prices } = AWS_PRICES;
  const indexingRequests =
    (written.put * s3Prices.perThousandPutListPost + written.list * s3Prices.perThousandPutListPost + written.get * s3Prices.perThousandGet) / 1000;
  const { perThousandQuestions, atRest } = knowledgeBillLines(usage);
  const cost = (lines: { cost: number }[]) => sum(lines.map((line) => line.cost));
  const lambda = cost(perThousandQuestions.filter((line) => line.service.startsWith('Lambda')));
  return [
    `${PAGES.toLocaleString('en')} pages (${(PAGES * 4).toLocaleString('en')} rows) indexed into LanceDB on S3 in ${(indexMs / 1000).toFixed(1)} s: ${written.put.toLocaleString('en')} PUT, ${written.get.toLocaleString('en')} GET, ${written.list.toLocaleString('en')} LIST, ${written.delete.toLocaleString('en')} DELETE (${money(indexingRequests)} of requests once); ${(usage.storedBytes / 1024 ** 2).toFixed(1)} MB kept`,
    `  at rest: ${money(cost(atRest))} a month (S3 Standard, $${s3Prices.perGbMonthStandard}/GB-month); no capacity billed while nobody asks`,
    formatFigures(figuresOf(`  search on S3, warm, top 5 (${PAGES / 1000}k pages)`, usage.searchDurationsMs, sum(usage.searchDurationsMs) / 1000)),
    `  per question: ${usage.perQuestion.get.toFixed(1)} GET and ${usage.perQuestion.list.toFixed(1)} LIST of S3 (before: 123.2 GET and 2.0 LIST, text read for every candidate, a version check per query)`,
    `  per 1,000 questions: S3 requests ${money(cost(perThousandQuestions) - lambda)} + ${SEARCH_FUNCTION.functionId} search (${SEARCH_FUNCTION.memoryMb} MB x86_64) ${money(lambda)} = ${money(cost(perThousandQuestions))} (before: $0.060; these are the knowledge lines of the bill, npm run bench -- cost)`,
  ];
}

/** The layer's import (LanceDB and Arrow) and a first connect, each in a fresh Node process, as the first knowledge call after a cold start pays. */
async function layerColdStart(): Promise<string[]> {
  const layer = mkdtempSync(join(tmpdir(), 'bench-lancedb-layer-'));
  const database = mkdtempSync(join(tmpdir(), 'bench-lancedb-db-'));
  try {
    writeLancedbLayer(layer);
    const script = `
      import { createRequire } from 'node:module';
      import { pathToFileURL } from 'node:url';
      const started = performance.now();
      const fromLayer = createRequire(${JSON.stringify(join(layer, 'nodejs', 'index.js'))});
      const [lancedb] = await Promise.all(['@lancedb/lancedb', 'apache-arrow'].map((name) => import(pathToFileURL(fromLayer.resolve(name)).href)));
      const imported = performance.now();
      await (await lancedb.connect(${JSON.stringify(database)})).tableNames();
      console.log(JSON.stringify({ importMs: imported - started, connectMs: performance.now() - imported }));`;
    const runs: { importMs: number; connectMs: number }[] = [];
    for (let run = 0; run < COLD_STARTS; run += 1) {
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
      runs.push(JSON.parse(stdout.trim()) as { importMs: number; connectMs: number });
    }
    return [
      `LanceDB layer (${(folderBytes(layer) / 1024 ** 2).toFixed(0)} MB unzipped): import ${median(runs.map((run) => run.importMs)).toFixed(0)} ms and first connect ${median(runs.map((run) => run.connectMs)).toFixed(0)} ms, medians of ${COLD_STARTS} fresh processes (paid once per sandbox, at its first knowledge call)`,
    ];
  } finally {
    rmSync(layer, { recursive: true, force: true });
    rmSync(database, { recursive: true, force: true });
  }
}

export async function benchKnowledgeAws(): Promise<string[]> {
  if (!existsSync(SCIFACT)) return ['skipped: ../shared/corpora/scifact is not beside the repository'];
  return [...(await layerColdStart()), ...(await indexOnS3())];
}
