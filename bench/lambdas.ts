import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { FUNCTIONS } from '../cdk/lib/functions';
import { COLD_START_BUDGET_MS, lambdaBuildOptions, providerAliases } from '../cdk/lib/lambda-bundling';
import { REPO_ROOT } from '../cdk/lib/repo-paths';
import { BUILTIN_SKILLS } from '../cdk/lib/skills';

/** Inside the repository's node_modules, so a bundle resolves the AWS SDK from it, as the Lambda runtime offers its own. */
const OUT_DIR = join(REPO_ROOT, 'node_modules/.cache/lambda-bundles');
const COLD_STARTS_PER_BUNDLE = 7;
/** The MODEL the bundles are measured for: Bedrock, as deployed in AWS (the heavier of the two providers). */
const BENCH_MODEL = 'bedrock:anthropic.claude-test';

/**
 * Bundles one entry as the CDK stack does (its build options); returns its `index.mjs`, what a cold start reads of it,
 * and what its chunks weigh besides (read only when a dynamic import needs them).
 */
async function bundle(id: string, entry: string): Promise<{ file: string; bytes: number; onDemandBytes: number }> {
  const outdir = join(OUT_DIR, id);
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({ entryPoints: [join(REPO_ROOT, entry)], outdir, metafile: true, ...lambdaBuildOptions(providerAliases(BENCH_MODEL)) });
  const file = join(outdir, 'index.mjs');
  // The code itself, without the source maps and licence texts beside it.
  const code = Object.entries(metafile.outputs).filter(([path]) => path.endsWith('.mjs'));
  const total = code.reduce((sum, [, output]) => sum + output.bytes, 0);
  const startBytes = code.filter(([path]) => !dynamicallyImported(metafile, path)).reduce((sum, [, output]) => sum + output.bytes, 0);
  return { file, bytes: startBytes, onDemandBytes: total - startBytes };
}

/** Whether a chunk is loaded only by a dynamic import (none of the statically imported chunks reaches it statically). */
function dynamicallyImported(metafile: Metafile, chunk: string): boolean {
  const staticallyLoaded = new Set<string>();
  const entry = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint)?.[0];
  const pending = entry ? [entry] : [];
  while (pending.length > 0) {
    const path = pending.pop()!;
    if (staticallyLoaded.has(path)) continue;
    staticallyLoaded.add(path);
    pending.push(...(metafile.outputs[path]?.imports ?? []).filter((imported) => imported.kind === 'import-statement').map((imported) => imported.path));
  }
  return !staticallyLoaded.has(chunk);
}

interface ColdStart {
  wallMs: number;
  /** The process's CPU time over the same span (all its threads): what a busy machine's other work does not stretch. */
  cpuMs: number;
}

/**
 * One cold start: a fresh Node process imports the bundle, which builds its handler at module level (its `handler`
 * export is the constructed handler), with the options and MODEL the stack gives it; from before the import to the handler.
 */
async function coldStart(file: string): Promise<ColdStart> {
  // The Lambda runtime's global for streaming handlers (the chat, the MCP access point), which a plain Node process lacks.
  const runtimeGlobal = 'globalThis.awslambda = { streamifyResponse: (handler) => handler, HttpResponseStream: { from: (stream) => stream } };';
  const script = `${runtimeGlobal} const t0 = performance.now(); const cpu0 = process.cpuUsage();
    const { handler } = await import(${JSON.stringify(file)}); if (typeof handler !== 'function') throw new Error('no handler');
    const cpu = process.cpuUsage(cpu0); console.log(JSON.stringify({ wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, TABLE_PREFIX: 'bench-', AWS_REGION: 'eu-west-1', MODEL: BENCH_MODEL },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ColdStart;
}

/** The baseline: a module that only loads the runtime's SDK clients most functions load, and exports a handler. */
function sdkOnlyModule(): string {
  const file = join(OUT_DIR, 'runtime-sdk-only.mjs');
  writeFileSync(
    file,
    "import '@aws-sdk/client-dynamodb'; import '@aws-sdk/lib-dynamodb'; import '@aws-sdk/client-sqs'; export const handler = () => undefined;\n",
  );
  return file;
}

/**
 * What a function's first request that needs a conversation language pays on top of the cold start: ELD's tables,
 * loaded on first use (shared/src/detect-language.ts), then one detection. Bundled as the functions bundle it.
 */
async function firstDetection(): Promise<ColdStart> {
  const entry = join(OUT_DIR, 'first-detection-entry.ts');
  writeFileSync(
    entry,
    `import { languageDetector } from ${JSON.stringify(join(REPO_ROOT, 'shared/src/detect-language.ts'))};\nexport const handler = async (text: string) => (await languageDetector()).detectLanguage(text);\n`,
  );
  const outdir = join(OUT_DIR, 'first-detection');
  await build({ entryPoints: [entry], outdir, ...lambdaBuildOptions(providerAliases(BENCH_MODEL)) });
  const file = join(outdir, 'index.mjs');
  const script = `const { handler } = await import(${JSON.stringify(file)}); const t0 = performance.now(); const cpu0 = process.cpuUsage();
    if (await handler('Wie viel kostet der Pro-Tarif?') !== 'de') throw new Error('the detector answered wrong');
    const cpu = process.cpuUsage(cpu0); console.log(JSON.stringify({ wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH } });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ColdStart;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Each platform Lambda's bundle size (for MODEL=bedrock:…) and its median cold start against COLD_START_BUDGET_MS. */
export async function benchLambdas(): Promise<string[]> {
  mkdirSync(OUT_DIR, { recursive: true });
  const loadBefore = loadavg()[0]!;
  const bundles = [];
  for (const { id, entry } of [...FUNCTIONS, ...BUILTIN_SKILLS]) bundles.push({ id, ...(await bundle(id, entry)), starts: [] as ColdStart[] });
  const baseline = { file: sdkOnlyModule(), starts: [] as ColdStart[] };
  // In rounds, one cold start of each bundle per round: a drift in the machine's load weighs on all alike.
  for (let round = 0; round < COLD_STARTS_PER_BUNDLE; round++) {
    for (const { file, starts } of [baseline, ...bundles]) starts.push(await coldStart(file));
  }
  const medians = (starts: ColdStart[]) => ({ wallMs: median(starts.map((start) => start.wallMs)), cpuMs: median(starts.map((start) => start.cpuMs)) });
  const measured = bundles.map(({ id, bytes, onDemandBytes, starts }) => ({ id, bytes, onDemandBytes, ...medians(starts) }));
  const sdkOnly = medians(baseline.starts);
  const detections: ColdStart[] = [];
  for (let round = 0; round < COLD_STARTS_PER_BUNDLE; round++) detections.push(await firstDetection());
  const detection = medians(detections);
  const met = measured.filter(({ wallMs }) => wallMs <= COLD_START_BUDGET_MS).length;
  return [
    `median of ${COLD_STARTS_PER_BUNDLE} fresh processes each; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
    `baseline: the runtime's DynamoDB and SQS clients alone   cold start ${sdkOnly.wallMs.toFixed(0).padStart(4)} ms (CPU ${sdkOnly.cpuMs.toFixed(0).padStart(4)} ms)`,
    ...measured.map(
      ({ id, bytes, onDemandBytes, wallMs, cpuMs }) =>
        `${id.padEnd(18)} ${(bytes / 1024).toFixed(0).padStart(6)} KB (+${(onDemandBytes / 1024).toFixed(0).padStart(5)} KB on demand)   cold start ${wallMs.toFixed(0).padStart(4)} ms (CPU ${cpuMs.toFixed(0).padStart(4)} ms, ${(wallMs / sdkOnly.wallMs).toFixed(1)}x the baseline)   ${COLD_START_BUDGET_MS} ms: ${wallMs <= COLD_START_BUDGET_MS ? 'met' : 'NOT met'}`,
    ),
    `cold start within ${COLD_START_BUDGET_MS} ms: ${met} of ${measured.length} bundles`,
    `first request that needs a conversation language (Chat, Runner, knowledge search and indexing): + ${detection.wallMs.toFixed(0)} ms (CPU ${detection.cpuMs.toFixed(0)} ms) to load the language detector, once per process (for information)`,
  ];
}
