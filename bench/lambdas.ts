import { execFile } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { FUNCTIONS } from '../cdk/lib/functions';
import { BUNDLE_BUDGET_BYTES, lambdaBuildOptions, providerAliases } from '../cdk/lib/lambda-bundling';
import { REPO_ROOT } from '../cdk/lib/repo-paths';
import { BUILTIN_SKILLS } from '../cdk/lib/skills';

const OUT_DIR = join(REPO_ROOT, 'node_modules/.cache/lambda-bundles');
const IMPORTS_PER_BUNDLE = 5;
/** The MODEL the bundles are measured for: Bedrock, as deployed in AWS (the heavier of the two providers). */
const BENCH_MODEL = 'bedrock:anthropic.claude-test';

/** Bundles one entry as the CDK stack does (LAMBDA_BUNDLING); returns the file and its size. */
async function bundle(id: string, entry: string): Promise<{ file: string; bytes: number }> {
  const file = join(OUT_DIR, `${id}.mjs`);
  await build({
    entryPoints: [join(REPO_ROOT, entry)],
    outfile: file,
    ...lambdaBuildOptions(providerAliases(BENCH_MODEL)),
  });
  // The bundle itself (the licence texts beside it, LAMBDA_BUNDLING.legalComments, are not loaded).
  return { file, bytes: statSync(file).size };
}

/** Median time to import the bundle (its handler built, as at a Lambda cold start) in a fresh Node process. */
async function coldImportMs(file: string): Promise<number> {
  // The Lambda runtime's global for streaming handlers (the chat), which a plain Node process lacks.
  const runtimeGlobal = 'globalThis.awslambda = { streamifyResponse: (handler) => handler, HttpResponseStream: { from: (stream) => stream } };';
  const script = `${runtimeGlobal} const t0 = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t0);`;
  const times: number[] = [];
  for (let i = 0; i < IMPORTS_PER_BUNDLE; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      // The MODEL the bundles are built for, as the stack sets it: a bundle carries only that model (providerAliases).
      env: { PATH: process.env.PATH, TABLE_PREFIX: 'bench-', AWS_REGION: 'eu-west-1', MODEL: BENCH_MODEL },
    });
    times.push(Number(stdout.trim().split('\n').at(-1)));
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** Each platform Lambda's bundle size (for MODEL=bedrock:…) against the 500 KB budget and its cold import time. */
export async function benchLambdas(): Promise<string[]> {
  mkdirSync(OUT_DIR, { recursive: true });
  const lines: string[] = [];
  for (const { id, entry } of [...FUNCTIONS, ...BUILTIN_SKILLS]) {
    const { file, bytes } = await bundle(id, entry);
    const verdict = bytes <= BUNDLE_BUDGET_BYTES ? 'within 500 KB' : 'OVER 500 KB';
    lines.push(`${id.padEnd(18)} ${(bytes / 1024).toFixed(0).padStart(6)} KB  ${verdict.padEnd(13)}  cold import ${(await coldImportMs(file)).toFixed(0).padStart(4)} ms (median of ${IMPORTS_PER_BUNDLE})`);
  }
  return lines;
}
