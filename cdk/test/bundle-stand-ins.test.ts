import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { lambdaBuildOptions, providerAliases } from '../lib/lambda-bundling';
import { REPO_ROOT } from '../lib/repo-paths';
import { probe } from './fixtures/model-call-probe';

const dir = mkdtempSync(join(tmpdir(), 'bundle-stand-ins-'));
// The bundle leaves the AWS SDK to the runtime (LAMBDA_BUNDLING.external); here the repository's stands in for it.
symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A script bundled exactly as a Lambda is (LAMBDA_BUNDLING, plus `aliases`), run by plain Node; its last line, parsed. */
async function runBundled<T>(name: string, contents: string, aliases: Record<string, string> = {}): Promise<T> {
  const outdir = join(dir, name);
  await build({
    stdin: { contents, resolveDir: import.meta.dirname, sourcefile: join(dir, `${name}.ts`), loader: 'ts' },
    outdir,
    ...lambdaBuildOptions(aliases),
  });
  const { stdout } = await promisify(execFile)(process.execPath, [join(outdir, 'index.mjs')], { env: { PATH: process.env.PATH } });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

/** The probe bundled as a Lambda is (the zod and AI Gateway stand-ins). */
const probeFromBundle = (): Promise<Awaited<ReturnType<typeof probe>>> =>
  runBundled(
    'probe',
    `import { probe } from ${JSON.stringify(join(import.meta.dirname, 'fixtures/model-call-probe.ts'))}; console.log(JSON.stringify(await probe()));`,
  );

/** The zod (English only) and AI Gateway stand-ins of the Lambda bundles change nothing a model call does. */
describe('the zod and AI Gateway stand-ins of the Lambda bundles', () => {
  it('leave model calls, provider schemas and English error messages as they are unbundled', async () => {
    const [unbundled, bundled] = await Promise.all([probe(), probeFromBundle()]);
    const { stringModelId: unbundledStringId, ...unbundledRest } = unbundled;
    const { stringModelId: bundledStringId, ...bundledRest } = bundled;
    expect(bundledRest).toEqual(unbundledRest);
    expect(bundled.openai.structured).toEqual({ summary: 'Oslo is cold' });
    expect(bundled.bedrock.steps[0]!.results).toEqual([{ city: 'Oslo', celsius: -3 }]);
    // A Claude model Bedrock knows: the same requests (tools, native structured output with the cleaned-up schema).
    expect(bundled.claude.requests).toHaveLength(3);
    expect(bundled.claude.requests[2]).toMatchObject({ additionalModelRequestFields: { output_config: { format: { type: 'json_schema' } } } });
    expect(bundled.malformedOpenAI).toMatch(/AI_TypeValidationError: .*Invalid input: expected/s);
    expect(bundled.zodMessages[0]).toBe('Invalid input: expected string, received number');
    // The one difference: a model given as a string id, which needs the AI Gateway the bundles leave out.
    expect(unbundledStringId).toMatch(/AI Gateway/);
    expect(bundledStringId).toMatch(/not part of this Lambda bundle/);
  }, 60_000);
});

describe('the model providers of a Lambda bundle', () => {
  it('are the one its MODEL selects; another says a deploy is needed', async () => {
    const resolveModel = join(REPO_ROOT, 'lambdas/src/infra/model/resolve-model.ts');
    const script = `import { resolveModel } from ${JSON.stringify(resolveModel)};
      const env = { AWS_REGION: 'eu-west-1', AWS_BEARER_TOKEN_BEDROCK: 'k' };
      const attempt = (setting) => { try { return resolveModel(setting, env).provider; } catch (error) { return error.message; } };
      console.log(JSON.stringify(['bedrock:anthropic.claude-test', 'openai:http://model.test/v1#m', 'offline'].map(attempt)));`;
    const [bedrock, openai, offline] = await runBundled<string[]>('providers', script, providerAliases('bedrock:anthropic.claude-test'));
    expect(bedrock).toMatch(/bedrock/);
    expect(openai).toMatch(/OpenAI-compatible model provider is not in this Lambda bundle.*deploy again/);
    expect(offline).toMatch(/offline model provider is not in this Lambda bundle.*deploy again/);
    expect(providerAliases('openai:http://x#m')).toEqual({
      '@ai-sdk/amazon-bedrock': expect.stringMatching(/model-provider-not-deployed/),
      '@service/offline-model': expect.stringMatching(/model-provider-not-deployed/),
    });
    expect(Object.keys(providerAliases(undefined)).sort()).toEqual(['@ai-sdk/amazon-bedrock', '@ai-sdk/openai-compatible']);
  }, 60_000);
});

/** zod in a bundle: zod's own modules, with English as the one locale (bundling/zod-v4*.ts). */
describe('the zod of the Lambda bundles', () => {
  it('offers every member of each zod namespace the libraries import, with English as its one locale', async () => {
    const script = `import * as root from 'zod'; import { z } from 'zod/v4'; import * as core from 'zod/v4/core'; import * as mini from 'zod/v4-mini';
      const members = (namespace) => Object.keys(namespace).sort();
      console.log(JSON.stringify({ root: members(root), z: members(z), core: members(core), mini: members(mini.z), locales: [z.locales, core.locales, mini.z.locales, z.core.locales].map(members) }));`;
    const bundled = await runBundled<Record<'root' | 'z' | 'core' | 'mini', string[]> & { locales: string[][] }>('zod', script);
    const members = (namespace: object): string[] => Object.keys(namespace).sort();
    const [root, v4, core, mini] = await Promise.all([import('zod'), import('zod/v4'), import('zod/v4/core'), import('zod/v4-mini')]);
    expect(bundled).toEqual({ root: members(root), z: members(v4.z), core: members(core), mini: members(mini.z), locales: [['en'], ['en'], ['en'], ['en']] });
    expect(members(core.locales).length).toBeGreaterThan(10);
  }, 60_000);
});
