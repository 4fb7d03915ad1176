/**
 * The packages as a user gets them: each is packed (`npm pack`), installed from its tarball into fresh directories
 * outside the repository, and used there as its README says.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWebhookSender } from '../../lambdas/src/domains/webhooks/send';
import { CJS_RECEIVER, ESM_RECEIVER, reactApp, SKILL_CONSUMER, tsconfig, WEBHOOKS_CONSUMER, WIDGET_CONSUMER } from './consumers';
import { run, startUntil, stop } from './processes';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'node_modules/.bin');
const PACKAGES = { sdk: 'skill-sdk', webhooks: 'webhooks', widget: 'embed' } as const;
type PackageKey = keyof typeof PACKAGES;
const RESOLUTIONS = ['nodenext', 'node16', 'bundler'] as const;
const INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

let work: string;
const tarballs = {} as Record<PackageKey, string>;
let nodeProject: string;
let reactProject: string;

async function pack(key: PackageKey): Promise<void> {
  // Packed as built by npm test's pretest: the packages' own build scripts (prepare, prepack) would empty their dist
  // folders for a while, under the feet of the test files running beside this one.
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: join(ROOT, PACKAGES[key]) });
  expect(packed.code, packed.stderr).toBe(0);
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [{ filename: string }];
  tarballs[key] = join(work, filename);
}

async function project(name: string, dependencies: string[]): Promise<string> {
  const dir = join(work, name);
  await run('mkdir', ['-p', dir], { cwd: work });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  // A user's own project, under npm's defaults: not under this repository's install-script policy, which npm hands
  // the scripts it runs (npm test) as npm_config_strict_allow_scripts.
  const installed = await run('npm', [...INSTALL, ...dependencies], { cwd: dir, env: { npm_config_strict_allow_scripts: 'false' } });
  expect(installed.code, installed.stderr).toBe(0);
  return dir;
}

/** The README's hello world, exactly as written there. */
async function readmeHelloWorld(): Promise<string> {
  const readme = await readFile(join(ROOT, 'skill-sdk/README.md'), 'utf8');
  const code = /## Hello world\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!code) throw new Error('skill-sdk/README.md has no hello world');
  return code;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-packages-'));
  for (const key of Object.keys(PACKAGES) as PackageKey[]) await pack(key);
  [nodeProject, reactProject] = await Promise.all([
    project('node-consumer', [tarballs.sdk, tarballs.webhooks, '@types/node@22']),
    project('react-app', [tarballs.widget, 'react@19', 'react-dom@19', 'lucide-react', '@types/react@19']),
  ]);
}, 240_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('@service/skill-sdk from its tarball', () => {
  const callGreet = async (url: string) => {
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hello__greet', arguments: { name: 'Ada' } } }),
    });
    return ((await response.json()) as { result: { structuredContent: unknown } }).result.structuredContent;
  };

  it.each([
    ['node', 'hello.js'],
    ['tsx', 'hello.ts'],
  ])('runs the README hello world with %s, announcing development mode, where it listens and its tools', async (runner, file) => {
    await writeFile(join(nodeProject, file), await readmeHelloWorld());
    const command = runner === 'node' ? process.execPath : join(BIN, 'tsx');
    const skill = await startUntil(command, [file], { cwd: nodeProject, env: { PORT: '0', NODE_ENV: 'development' } }, /tools: .*\n/);
    try {
      const url = /listening on (http:\/\/\S+)/.exec(skill.output())?.[1] ?? '';
      expect(skill.output()).toMatch(/DEVELOPMENT MODE/);
      expect(skill.output()).toContain('tools: hello__greet (read-only)');
      expect(await callGreet(url)).toEqual({ greeting: 'Hello, Ada!' });
    } finally {
      await stop(skill.child);
    }
  });

  it('loads from CommonJS too, through require() of ES modules (Node.js 20.19 and later)', async () => {
    const script =
      "const { defineSkill } = require('@service/skill-sdk'); const { executeTool } = require('@service/skill-sdk/test'); console.log(typeof defineSkill, typeof executeTool);";
    const loaded = await run(process.execPath, ['-e', script], { cwd: nodeProject });
    expect(loaded.stdout.trim(), loaded.stderr).toBe('function function');
  });

  it('lists and calls the hello-world tool from the MCP Inspector CLI in development mode', async () => {
    await writeFile(join(nodeProject, 'hello.js'), await readmeHelloWorld());
    const skill = await startUntil(process.execPath, ['hello.js'], { cwd: nodeProject, env: { PORT: '0', NODE_ENV: 'development' } }, /tools: .*\n/);
    try {
      const url = `${/listening on (http:\/\/\S+)/.exec(skill.output())?.[1]}/mcp`;
      const inspector = (...args: string[]) => run(join(BIN, 'mcp-inspector'), ['--cli', url, ...args], { cwd: nodeProject, env: { HOME: work } }); // its catalog goes under HOME
      const listed = await inspector('--method', 'tools/list');
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toMatchObject({ tools: [{ name: 'hello__greet', annotations: { readOnlyHint: true } }] });
      const called = await inspector('--method', 'tools/call', '--tool-name', 'hello__greet', '--tool-arg', 'name=Ada');
      expect(called.code, called.stderr).toBe(0);
      expect(JSON.parse(called.stdout)).toMatchObject({ structuredContent: { greeting: 'Hello, Ada!' } });
    } finally {
      await stop(skill.child);
    }
  });
});

describe('type-checking consumers with tsc --strict and skipLibCheck: false', () => {
  it.each(RESOLUTIONS)('the README hello world, skill-sdk and webhooks under moduleResolution %s: zero errors', async (resolution) => {
    await writeFile(join(nodeProject, 'hello.ts'), await readmeHelloWorld());
    await writeFile(join(nodeProject, 'skill.ts'), SKILL_CONSUMER);
    await writeFile(join(nodeProject, 'receiver.ts'), WEBHOOKS_CONSUMER);
    await writeFile(
      join(nodeProject, `tsconfig.${resolution}.json`),
      tsconfig(resolution, ['hello.ts', 'skill.ts', 'receiver.ts'], { types: ['node'], lib: ['es2023', 'dom'] }),
    );
    const checked = await run(join(BIN, 'tsc'), ['-p', `tsconfig.${resolution}.json`], { cwd: nodeProject });
    expect(checked.stdout + checked.stderr).toBe('');
  });

  it.each(RESOLUTIONS)('chat-widget and its React entry under moduleResolution %s: zero errors', async (resolution) => {
    await writeFile(join(reactProject, 'app.tsx'), WIDGET_CONSUMER);
    await writeFile(
      join(reactProject, `tsconfig.${resolution}.json`),
      tsconfig(resolution, ['app.tsx'], { jsx: 'react-jsx', types: [], lib: ['es2022', 'dom', 'dom.iterable'] }),
    );
    const checked = await run(join(BIN, 'tsc'), ['-p', `tsconfig.${resolution}.json`], { cwd: reactProject });
    expect(checked.stdout + checked.stderr).toBe('');
  });
});

describe('@service/webhooks from its tarball', () => {
  it.each([
    ['CommonJS', 'receiver.cjs', CJS_RECEIVER],
    ['ESM', 'receiver.mjs', ESM_RECEIVER],
  ])('verifies a delivery the platform signed and sent, from %s', async (_kind, file, source) => {
    const secret = 'whsec_packages_test_0123456789abcdef';
    await writeFile(join(nodeProject, file), source);
    const receiver = await startUntil(process.execPath, [file], { cwd: nodeProject, env: { SIGNING_SECRET: secret } }, /listening (\d+)/);
    const sender = createWebhookSender({ allowLocal: true });
    try {
      const payload = JSON.stringify({
        id: 'evt_packagestest0001',
        event: 'agent.command.completed',
        created_at: new Date().toISOString(),
        data: { result_text: 'Grüße' },
      });
      const url = `http://127.0.0.1:${receiver.match[1]}/hooks`;
      const sent = await sender.send({
        url,
        id: 'evt_packagestest0001',
        event: 'agent.command.completed',
        payload,
        signingSecret: secret,
        signedAt: new Date(),
      });
      expect(sent).toMatchObject({ ok: true, httpStatus: 204 });
      // The receiver logs before it answers, but its stdout reaches this process through a pipe that may lag the HTTP answer.
      await vi.waitFor(() => expect(receiver.output()).toContain('verified evt_packagestest0001 agent.command.completed'), { timeout: 10_000 });
      const forged = await sender.send({
        url,
        id: 'evt_packagestest0001',
        event: 'agent.command.completed',
        payload,
        signingSecret: `${secret}x`,
        signedAt: new Date(),
      });
      expect(forged).toMatchObject({ ok: false, httpStatus: 400 });
    } finally {
      sender.close();
      await stop(receiver.child);
    }
  });
});

describe('@service/chat-widget/react in a host app', () => {
  it('is a client module for React Server Components', async () => {
    const entry = await readFile(join(reactProject, 'node_modules/@service/chat-widget/dist/npm/react.js'), 'utf8');
    expect(entry.startsWith('"use client";')).toBe(true);
  });

  it('adds at most 3 KB gzip to the main chunk: the widget UI loads lazily', async () => {
    const mainChunkGzip = async (name: string, withWidget: boolean) => {
      await writeFile(join(reactProject, `${name}.tsx`), reactApp(withWidget));
      const result = await build({
        entryPoints: [join(reactProject, `${name}.tsx`)],
        bundle: true,
        splitting: true,
        format: 'esm',
        minify: true,
        jsx: 'automatic',
        define: { 'process.env.NODE_ENV': '"production"' },
        outdir: join(reactProject, `out-${name}`),
        write: false,
        logLevel: 'silent',
      });
      const main = result.outputFiles.find((file) => file.path.endsWith(`${name}.js`));
      return { main: gzipSync(main!.contents).length, chunks: result.outputFiles.length };
    };
    const [without, withWidget] = [await mainChunkGzip('baseline', false), await mainChunkGzip('with-widget', true)];
    const growth = withWidget.main - without.main;
    console.log(
      `React host main chunk: ${without.main} B gzip without the widget, ${withWidget.main} B with it (+${growth} B); ${withWidget.chunks - 1} lazy chunk(s)`,
    );
    expect(withWidget.chunks).toBeGreaterThan(1);
    expect(growth).toBeLessThanOrEqual(3 * 1024);
  });
});

describe('package linters', () => {
  it.each(Object.keys(PACKAGES) as PackageKey[])('arethetypeswrong and publint find no problem in %s', async (key) => {
    // ESM-only packages are checked with attw's esm-only profile; @service/webhooks ships CommonJS too (strict profile).
    const profile = key === 'webhooks' ? 'strict' : 'esm-only';
    const [attw, publint] = await Promise.all([
      run(join(BIN, 'attw'), [tarballs[key], '--profile', profile, '--format', 'ascii', '--no-color'], { cwd: work }),
      run(join(BIN, 'publint'), ['run', tarballs[key], '--strict'], { cwd: work }),
    ]);
    expect(attw.code, attw.stdout + attw.stderr).toBe(0);
    expect(publint.code, publint.stdout + publint.stderr).toBe(0);
    expect(publint.stdout).toMatch(/All good/);
  });
});
