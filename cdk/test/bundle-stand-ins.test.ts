import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getModelCapabilities, sanitizeJsonSchema } from '@ai-sdk/anthropic/internal';
import { build } from 'esbuild';
import { LRUCache } from 'lru-cache';
import { afterAll, describe, expect, it } from 'vitest';
import * as anthropicStandIn from '../lib/bundling/anthropic-internal-for-bedrock';
import { LRUCache as LRUCacheStandIn } from '../lib/bundling/lru-cache-map';
import { z as zodMembers } from '../lib/bundling/zod-v4';
import { FUNCTIONS } from '../lib/functions';
import { lambdaBuildOptions, providerAliases } from '../lib/lambda-bundling';
import { REPO_ROOT } from '../lib/repo-paths';
import { BUILTIN_SKILLS } from '../lib/skills';
import { probe } from './fixtures/model-call-probe';

const dir = mkdtempSync(join(tmpdir(), 'bundle-stand-ins-'));
// The bundle leaves the AWS SDK to the runtime (LAMBDA_BUNDLING.external); here the repository's stands in for it.
symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A script bundled exactly as a Lambda is (LAMBDA_BUNDLING, plus `aliases`), run by plain Node; its last line, parsed. */
async function runBundled<T>(name: string, contents: string, aliases: Record<string, string> = {}): Promise<T> {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    stdin: { contents, resolveDir: import.meta.dirname, sourcefile: join(dir, `${name}.ts`), loader: 'ts' },
    outfile,
    ...lambdaBuildOptions(aliases),
  });
  const { stdout } = await promisify(execFile)(process.execPath, [outfile], { env: { PATH: process.env.PATH } });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

/** The probe bundled as a Lambda is (the zod and AI Gateway stand-ins). */
const probeFromBundle = (): Promise<Awaited<ReturnType<typeof probe>>> =>
  runBundled('probe', `import { probe } from ${JSON.stringify(join(import.meta.dirname, 'fixtures/model-call-probe.ts'))}; console.log(JSON.stringify(await probe()));`);

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
      '@service/lambdas/src/infra/model/offline/offline-model': expect.stringMatching(/model-provider-not-deployed/),
    });
    expect(Object.keys(providerAliases(undefined)).sort()).toEqual(['@ai-sdk/amazon-bedrock', '@ai-sdk/openai-compatible']);
  }, 60_000);
});

/** The Anthropic internals the Bedrock provider imports, as a Lambda bundle has them (anthropic-internal-for-bedrock.ts). */
describe('the Anthropic internals stand-in of the Lambda bundles', () => {
  it('answers model capabilities as the package does, for every model id its table names', () => {
    const source = readFileSync(join(REPO_ROOT, 'node_modules/@ai-sdk/anthropic/src/anthropic-language-model.ts'), 'utf8');
    const table = source.slice(source.indexOf('export function getModelCapabilities'));
    const named = [...table.matchAll(/modelId\.includes\('([^']+)'\)/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(10);
    // And ids for its patterns: Claude 4 with `-` or `@`, the legacy families (instant, 2, 3) and their neighbours.
    const patterned = ['claude-sonnet-4-20250514', 'claude-sonnet-4@20250514', 'claude-opus-4-20250514', 'claude-opus-4@20250514', 'claude-sonnet-4', 'claude-instant-v1', 'claude-instant', 'claude-v2', 'claude-v2:1', 'claude-2.1', 'claude-2', 'claude-3', 'claude-3-sonnet-20240229', 'claude-3-5-sonnet-20241022', 'claude-3-7-sonnet-20250219', 'claude-3-5-haiku-20241022', 'claude-30', 'claude-4'];
    const ids = [...[...named, ...patterned].flatMap((id) => [id, `anthropic.${id}-v1:0`, `eu.anthropic.${id}-20250929-v1:0`]), 'anthropic.claude-test', 'amazon.nova-lite-v1:0', 'meta.llama3-70b', ''];
    for (const id of ids) expect(anthropicStandIn.getModelCapabilities(id), id).toEqual(getModelCapabilities(id));
  });

  it('cleans up a structured-output schema as the package does (its own function)', () => {
    const schema: Parameters<typeof sanitizeJsonSchema>[0] = { type: 'object', properties: { n: { type: 'integer', minimum: 1 }, at: { type: 'string', format: 'date-time' }, tag: { type: 'string', format: 'color' } }, required: ['n'] };
    expect(anthropicStandIn.sanitizeJsonSchema(schema)).toEqual(sanitizeJsonSchema(schema));
  });

  it('leaves out only the provider-defined Anthropic tools, which fail with the reason', async () => {
    const script = `import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
      const bedrock = createAmazonBedrock({ region: 'eu-west-1', apiKey: 'k' });
      let message = 'no error';
      try { bedrock.tools.bash_20250124({}); } catch (error) { message = error.message; }
      console.log(JSON.stringify({ message, listed: Object.keys(bedrock.tools) }));`;
    const result = await runBundled<{ message: string; listed: string[] }>('anthropic-tools', script);
    expect(result).toEqual({ message: expect.stringMatching(/provider-defined tools .* are not part of this Lambda bundle/), listed: [] });
  }, 60_000);
});

/** zod's compiler and JSON Schema to zod converter, which the zod namespaces of a bundle leave out (zod-compile-absent.ts). */
describe('the zod namespaces of the Lambda bundles', () => {
  it('leave out only what no module of any bundle calls', async () => {
    const calls = /\b(?:fromJSONSchema|withParser|compileFn)\b|\b(?:z|z\d|zod|core|z4mini)\.compile\b/;
    const modules = new Set<string>();
    for (const { id, entry } of [...FUNCTIONS, ...BUILTIN_SKILLS]) {
      const { metafile } = await build({ entryPoints: [join(REPO_ROOT, entry)], outfile: join(dir, `${id}.mjs`), metafile: true, write: false, ...lambdaBuildOptions(providerAliases('bedrock:anthropic.claude-test')) });
      for (const input of Object.keys(metafile.inputs)) if (!input.includes('node_modules/zod/') && !input.includes('bundling/zod-')) modules.add(input);
    }
    expect(modules.size).toBeGreaterThan(300);
    const callers = [...modules].filter((input) => calls.test(readFileSync(join(REPO_ROOT, input), 'utf8')));
    expect(callers).toEqual([]);
  }, 120_000);

  it('offer as `z` every member a bundle reads off it, for every MODEL kind, and `z` is used in no other way', async () => {
    const builds = [...FUNCTIONS, ...BUILTIN_SKILLS].flatMap(({ id, entry }) =>
      (['Runner', 'Chat'].includes(id) ? ['bedrock:anthropic.claude-test', 'openai:http://model.test/v1#m', 'offline'] : ['bedrock:anthropic.claude-test']).map((model) => ({ id, entry, model })),
    );
    const read = new Set<string>();
    const otherUses: string[] = [];
    for (const { id, entry, model } of builds) {
      const { outputFiles } = await build({ entryPoints: [join(REPO_ROOT, entry)], outfile: join(dir, `${id}-z.mjs`), write: false, ...lambdaBuildOptions(providerAliases(model)), minify: false });
      const code = outputFiles.find((file) => file.path.endsWith('.mjs'))!.text;
      // zod-v4.ts's object keeps its distinctive name in an unminified bundle (a digit appended if it had to be renamed).
      const names = [...code.matchAll(/\bvar (zodMembersReadByTheBundles\d*) = /g)].map((match) => match[1]!);
      expect(names.length, `${id} ${model}`).toBeLessThanOrEqual(1);
      for (const name of names) {
        for (const use of code.matchAll(new RegExp(`(?<![\\w$.])${name}(?![\\w$])(\\.[A-Za-z_$][\\w$]*)?`, 'g'))) {
          if (use[1]) read.add(use[1].slice(1));
          else if (!code.startsWith(`var ${name} = `, use.index - 'var '.length)) otherUses.push(`${id} ${model}: ${code.slice(use.index, use.index + 60)}`);
        }
      }
    }
    expect(read.size).toBeGreaterThan(5);
    expect([...read].filter((member) => !(member in zodMembers))).toEqual([]);
    expect(otherUses).toEqual([]);
    // The members are zod's own functions.
    const zod = await import('zod/v4');
    for (const [member, value] of Object.entries(zodMembers)) expect(value, member).toBe(zod.z[member as keyof typeof zod.z]);
  }, 240_000);

  it('fail a call of them with the reason, in a bundle only', async () => {
    const script = `import { compile, fromJSONSchema, INVALID, string } from 'zod';
      const attempt = (f) => { try { f(); return 'no error'; } catch (error) { return error.message; } };
      console.log(JSON.stringify([attempt(() => compile(string())), attempt(() => fromJSONSchema({ type: 'string' })), INVALID === Symbol.for('zod.compile.invalid')]));`;
    const [compile, fromJSONSchema, sentinel] = await runBundled<[string, string, boolean]>('zod-compile', script);
    expect(compile).toMatch(/zod's compile is not part of this Lambda bundle/);
    expect(fromJSONSchema).toMatch(/zod's fromJSONSchema is not part of this Lambda bundle/);
    expect(sentinel).toBe(true);
  }, 60_000);
});

/** The lru-cache of the Lambda bundles (lru-cache-map.ts), against lru-cache itself. */
describe('the lru-cache stand-in of the Lambda bundles', () => {
  it('answers as lru-cache does, over the same random operations and clock', () => {
    let seed = 7;
    const random = (n: number): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (const options of [{ max: 3 }, { max: 5, ttl: 40 }, { max: 1 }, { max: 8, ttl: 1 }]) {
      let now = 1_000;
      const perf = { now: () => now };
      const real = new LRUCache<string, number>({ ...options, perf, ttlResolution: 0 });
      const standIn = new LRUCacheStandIn<string, number>({ ...options, perf, ttlResolution: 0 });
      for (let step = 0; step < 5_000; step++) {
        const key = `k${random(10)}`;
        const op = random(10);
        now += random(4) === 0 ? random(60) : 0;
        if (op < 4) expect(standIn.get(key), `step ${step}`).toBe(real.get(key));
        else if (op < 6) {
          standIn.set(key, step);
          real.set(key, step);
        } else if (op < 8) {
          const ttl = random(3) === 0 ? 0 : random(50) + 1;
          standIn.set(key, step, { ttl });
          real.set(key, step, { ttl });
        } else if (op < 9) expect(standIn.delete(key)).toBe(real.delete(key));
        else {
          standIn.set(key, undefined);
          real.set(key, undefined as never);
        }
        expect(standIn.size, `step ${step}`).toBe(real.size);
      }
    }
  });

  it('is asked by the bundled modules for nothing more than it offers', async () => {
    const { metafile } = await build({ entryPoints: [...FUNCTIONS, ...BUILTIN_SKILLS].map(({ entry }) => join(REPO_ROOT, entry)), outdir: join(dir, 'lru'), metafile: true, write: false, ...lambdaBuildOptions(providerAliases('bedrock:anthropic.claude-test')) });
    const users = Object.entries(metafile.inputs).filter(([, input]) => input.imports.some((imported) => imported.original === 'lru-cache')).map(([path]) => path);
    expect(users.length).toBeGreaterThan(2);
    for (const path of users) {
      const source = readFileSync(join(REPO_ROOT, path), 'utf8');
      const caches = [...source.matchAll(/(\w+) = new LRUCache(?:<[^(]*>)?\(\{([^}]*)\}/g)];
      const names = [...caches.map((match) => match[1]!), ...[...source.matchAll(/\(cache = new LRUCache/g)].map(() => 'cache')];
      expect(names.length, path).toBeGreaterThan(0);
      for (const match of caches) expect(match[2]!.split(',').map((option) => option.split(':')[0]!.trim()).filter(Boolean).every((option) => ['max', 'ttl'].includes(option)), path).toBe(true);
      const methods = names.flatMap((name) => [...source.matchAll(new RegExp(`\\b${name}\\??\\.(\\w+)`, 'g'))].map((match) => match[1]!));
      expect(methods.filter((method) => !['get', 'set', 'delete'].includes(method)), path).toEqual([]);
    }
  }, 120_000);
});
