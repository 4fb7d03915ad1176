import { execFile } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { FUNCTIONS } from '../cdk/lib/functions';
import { COLD_START_BUDGET_MS, lambdaBuildOptions, providerAliases } from '../cdk/lib/lambda-bundling';
import { REPO_ROOT } from '../cdk/lib/repo-paths';
import { BUILTIN_SKILLS } from '../cdk/lib/skills';

/** Inside the repository's node_modules, so a bundle resolves the AWS SDK from it, as the Lambda runtime offers its own. */
const OUT_DIR = join(REPO_ROOT, 'node_modules/.cache/lambda-bundles');
const COLD_STARTS_PER_BUNDLE = 7;
/** The MODEL the bundles are measured for: Bedrock, as deployed in AWS (the heavier of the two providers). */
const BENCH_MODEL = 'bedrock:anthropic.claude-test';

/** Bundles one entry as the CDK stack does (LAMBDA_BUNDLING, with its source map); returns the file and its size. */
async function bundle(id: string, entry: string): Promise<{ file: string; bytes: number }> {
  const file = join(OUT_DIR, `${id}.mjs`);
  await build({
    entryPoints: [join(REPO_ROOT, entry)],
    outfile: file,
    sourcemap: true,
    ...lambdaBuildOptions(providerAliases(BENCH_MODEL)),
  });
  // The code itself: its source map and licence texts beside it are deployed, not loaded unless a stack is printed.
  return { file, bytes: statSync(file).size };
}

/**
 * One cold start: a fresh Node process imports the bundle, which builds its handler at module level (its `handler`
 * export is the constructed handler), with the options the stack sets; the time from before the import to the handler.
 */
async function coldStartMs(file: string): Promise<number> {
  // The Lambda runtime's global for streaming handlers (the chat, the MCP access point), which a plain Node process lacks.
  const runtimeGlobal = 'globalThis.awslambda = { streamifyResponse: (handler) => handler, HttpResponseStream: { from: (stream) => stream } };';
  const script = `${runtimeGlobal} const t0 = performance.now(); const { handler } = await import(${JSON.stringify(file)});
    if (typeof handler !== 'function') throw new Error('no handler'); console.log(performance.now() - t0);`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    // As node-function.ts deploys it; the MODEL the bundles are built for (a bundle carries only that one, providerAliases).
    env: { PATH: process.env.PATH, NODE_OPTIONS: '--enable-source-maps', TABLE_PREFIX: 'bench-', AWS_REGION: 'eu-west-1', MODEL: BENCH_MODEL },
  });
  return Number(stdout.trim().split('\n').at(-1));
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Each platform Lambda's bundle size (for MODEL=bedrock:…) and its median cold start against COLD_START_BUDGET_MS. */
export async function benchLambdas(): Promise<string[]> {
  mkdirSync(OUT_DIR, { recursive: true });
  const bundles = [];
  for (const { id, entry } of [...FUNCTIONS, ...BUILTIN_SKILLS]) bundles.push({ id, ...(await bundle(id, entry)) });
  // In rounds, one cold start of each bundle per round: a drift in the machine's load weighs on all alike.
  const times = new Map(bundles.map(({ id }) => [id, [] as number[]]));
  for (let round = 0; round < COLD_STARTS_PER_BUNDLE; round++) {
    for (const { id, file } of bundles) times.get(id)!.push(await coldStartMs(file));
  }
  const lines = bundles.map(({ id, bytes }) => {
    const ms = median(times.get(id)!);
    const verdict = ms <= COLD_START_BUDGET_MS ? 'met' : 'NOT met';
    return `${id.padEnd(18)} ${(bytes / 1024).toFixed(0).padStart(6)} KB   cold start ${ms.toFixed(0).padStart(4)} ms (median of ${COLD_STARTS_PER_BUNDLE}; budget ${COLD_START_BUDGET_MS} ms: ${verdict})`;
  });
  const met = bundles.filter(({ id }) => median(times.get(id)!) <= COLD_START_BUDGET_MS).length;
  return [...lines, `cold start within ${COLD_START_BUDGET_MS} ms: ${met} of ${bundles.length} bundles`];
}
