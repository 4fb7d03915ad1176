import { Validator } from '@seriousme/openapi-schema-validator';
import { ENDPOINTS } from '@service/shared';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';

/**
 * What an integrator does with the served OpenAPI document: generate types with openapi-typescript, type-check the
 * openapi-fetch client of docs/rest-api.md ("A typed client") against them, and run it against the platform.
 */
const REST_API_DOC = readFileSync(resolve(import.meta.dirname, '../../../docs/rest-api.md'), 'utf8');
const NODE_MODULES = resolve(import.meta.dirname, '../../../node_modules');

const clientProgram = (): string => {
  const block = /^```ts typed-client\n([\s\S]*?)^```$/m.exec(REST_API_DOC);
  expect(block, 'docs/rest-api.md has no ```ts typed-client block').not.toBeNull();
  return block![1]!;
};

interface Operation {
  operationId?: string;
  tags?: string[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  tags?: { name: string; description?: string }[];
}

/** The type errors of programs in `dir` (file:line: message), compiled strictly as Node ESM, the generated declarations included. */
function typeErrors(dir: string, files: string[]): string[] {
  const program = ts.createProgram(
    files.map((file) => join(dir, file)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      skipLibCheck: false,
    },
  );
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const line = diagnostic.file
      ? `${diagnostic.file.fileName.slice(dir.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}

const lineOf = (program: string, text: string) => program.slice(0, program.indexOf(text)).split('\n').length;

describe('a TypeScript client generated from the served OpenAPI document', () => {
  const ctx = usePlatform();
  let document: Document;
  let dir: string;

  beforeAll(async () => {
    const response = await fetch(`${ctx.platform.apiBaseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
    dir = mkdtempSync(join(tmpdir(), 'typed-client-'));
    // The client resolves openapi-fetch, typescript's lib and @types/node as an installed project would.
    symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir');
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes the strict validator and names and tags every operation after its contract, once', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, ...operation })),
    );
    expect(operations).toHaveLength(Object.keys(ENDPOINTS).length);
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    expect(ids).toEqual(expect.arrayContaining(['agents_command', 'agents_command_status', 'agents_list', 'webhooks_create', 'auth_passkey_signin_options']));
    for (const operation of operations) {
      expect(operation.operationId, operation.path).toBe(operation.path.slice(1, -1).replaceAll('/', '_'));
      expect(operation.tags, operation.path).toEqual([operation.path.split('/')[1]]);
    }
    const declared = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
    expect([...declared.keys()].sort()).toEqual([...new Set(operations.flatMap((operation) => operation.tags!))].sort());
    for (const [name, description] of declared) expect(description.length, `tag ${name}`).toBeGreaterThan(10);
    // The language is part of the server URL, not of the paths: the Turkish document names the same operations.
    const turkish = (await (await fetch(`${ctx.platform.apiBaseUrl.replace('/en/', '/tr/')}/openapi.json`)).json()) as Document & {
      servers: { url: string }[];
    };
    expect(turkish.servers[0]!.url).toMatch(/\/tr\/api\/v1$/);
    expect(Object.values(turkish.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId))).toEqual(ids);
  });

  it('generates types with openapi-typescript; the documented openapi-fetch client type-checks against them, a wrong call does not', async () => {
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(document as never)));
    const program = clientProgram();
    writeFileSync(join(dir, 'client.mts'), program);
    // The same program with a path the API lacks and a misnamed query parameter: the generated types refuse both.
    const wrong = program
      .replace("client.GET('/agents/list/')", "client.GET('/agents/all/')")
      .replace('query: { run_id: run.run_id }', 'query: { runid: run.run_id }');
    writeFileSync(join(dir, 'wrong.mts'), wrong);
    const errors = typeErrors(dir, ['client.mts', 'wrong.mts']);
    expect(errors.filter((error) => !error.startsWith('wrong.mts:'))).toEqual([]);
    const lines = errors.map((error) => error.slice(0, error.indexOf(':', 'wrong.mts:'.length)));
    expect(lines).toEqual(expect.arrayContaining([`wrong.mts:${lineOf(wrong, '/agents/all/')}`, `wrong.mts:${lineOf(wrong, 'runid')}`]));
  }, 120_000);

  it('runs as written against the platform: lists the agents, commands one, polls the run to completed', async () => {
    // Runs without the generated declarations too: the program imports only types from them.
    writeFileSync(join(dir, 'client.mts'), clientProgram());
    const tsx = createRequire(import.meta.url).resolve('tsx/cli');
    const { stdout } = await promisify(execFile)(process.execPath, [tsx, 'client.mts'], {
      cwd: dir,
      env: { ...process.env, BASE: ctx.platform.apiBaseUrl, KEY: ctx.key },
      timeout: 60_000,
    });
    const printed = JSON.parse(stdout.trim()) as { agent: string; run_id: string; status: string };
    expect(printed).toMatchObject({ agent: 'Ada', status: 'completed' });
    const run = await ctx.api<{ status: string; instruction: string }>('agents/command_status/', { query: { run_id: printed.run_id } });
    expect(run.body.data).toMatchObject({ status: 'completed', instruction: 'What does it cost?' });
  }, 90_000);
});
