import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { LAMBDA_BUNDLING } from '../lib/lambda-bundling';
import { REPO_ROOT } from '../lib/repo-paths';
import { probe } from './fixtures/model-call-probe';

const dir = mkdtempSync(join(tmpdir(), 'bundle-stand-ins-'));
// The bundle leaves the AWS SDK to the runtime (LAMBDA_BUNDLING.external); here the repository's stands in for it.
symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The probe bundled exactly as a Lambda is (LAMBDA_BUNDLING: the zod and AI Gateway stand-ins), run by plain Node. */
async function probeFromBundle(): Promise<Awaited<ReturnType<typeof probe>>> {
  const entry = join(dir, 'entry.ts');
  const outfile = join(dir, 'probe.mjs');
  await build({
    stdin: { contents: `import { probe } from ${JSON.stringify(join(import.meta.dirname, 'fixtures/model-call-probe.ts'))}; console.log(JSON.stringify(await probe()));`, resolveDir: import.meta.dirname, sourcefile: entry, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: LAMBDA_BUNDLING.target,
    mainFields: [...LAMBDA_BUNDLING.mainFields],
    minify: LAMBDA_BUNDLING.minify,
    external: [...LAMBDA_BUNDLING.external],
    alias: { ...LAMBDA_BUNDLING.alias },
    banner: { js: LAMBDA_BUNDLING.banner },
    logLevel: 'silent',
  });
  const { stdout } = await promisify(execFile)(process.execPath, [outfile], { env: { PATH: process.env.PATH } });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/** The zod (English only) and AI Gateway stand-ins of the Lambda bundles change nothing a model call does. */
describe('the zod and AI Gateway stand-ins of the Lambda bundles', () => {
  it('leave model calls, provider schemas and English error messages as they are unbundled', async () => {
    const [unbundled, bundled] = await Promise.all([probe(), probeFromBundle()]);
    const { stringModelId: unbundledStringId, ...unbundledRest } = unbundled;
    const { stringModelId: bundledStringId, ...bundledRest } = bundled;
    expect(bundledRest).toEqual(unbundledRest);
    expect(bundled.openai.structured).toEqual({ summary: 'Oslo is cold' });
    expect(bundled.bedrock.steps[0]!.results).toEqual([{ city: 'Oslo', celsius: -3 }]);
    expect(bundled.malformedOpenAI).toMatch(/AI_TypeValidationError: .*Invalid input: expected/s);
    expect(bundled.zodMessages[0]).toBe('Invalid input: expected string, received number');
    // The one difference: a model given as a string id, which needs the AI Gateway the bundles leave out.
    expect(unbundledStringId).toMatch(/AI Gateway/);
    expect(bundledStringId).toMatch(/not part of this Lambda bundle/);
  }, 60_000);
});
