import { basename } from 'node:path';
import { build } from 'esbuild';
import { QUEUE_NAMES } from '@service/shared';
import { FUNCTIONS } from '../../lib/functions';
import { LAMBDA_BUNDLING } from '../../lib/lambda-bundling';
import { existingRepoFile } from '../../lib/repo-paths';
import { BUILTIN_SKILLS } from '../../lib/skills';

export interface HandlerUsage {
  /** Logical table names the handler's own code passes to `store.table(...)` (or `physicalTableName`). */
  tables: Set<string>;
  /** Queues it sends to through `queue.send(...)`. */
  queues: Set<string>;
  /** Every upper-case name in its code: a superset of the environment settings it reads. */
  settingNames: Set<string>;
}

const TABLE_REFERENCE = /\b(?:table|physicalTableName)\((?:[^,()]*,\s*)?['"]([a-zA-Z]+)['"]/g;
/** The store helpers of infra/store/dynamo.ts that take the table by name after the store (`updateIf(deps.store, 'runs', …)`). */
const TABLE_HELPER_REFERENCE = /\b(?:updateIf|createOrFind)\d*\([^,()]*,\s*['"]([a-zA-Z]+)['"]/g;
const QUEUE_SEND = new RegExp(`\\.send\\(\\s*['"](${QUEUE_NAMES.join('|')})['"]`, 'g');
const SETTING_NAME = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g;

/** The stack's handler files that exist: its functions' and its built-in skills' entries. */
const stackHandlers = () => [...FUNCTIONS, ...BUILTIN_SKILLS].flatMap(({ entry }) => existingRepoFile(entry) ?? []);

/** What each handler file reaches; the first question scans every handler of the stack at once. */
let scanned: Promise<Map<string, HandlerUsage>> | undefined;

/**
 * What a handler's code can reach: esbuild bundles it as the Lambda bundle is built, tree-shaking away exports the
 * handler never calls, and the remaining code is scanned for table and queue references and setting names. Every
 * handler is bundled in one esbuild run, one entry point each: each output is still that handler's own tree-shaken
 * bundle, but the modules they share (most of lambdas/src) are parsed once instead of once per handler (a third of
 * the time of a run per handler).
 */
export async function handlerUsage(entry: string): Promise<HandlerUsage> {
  scanned ??= scan([...new Set([...stackHandlers(), entry])]);
  return (await scanned).get(entry) ?? (await scan([entry])).get(entry)!;
}

async function scan(entries: string[]): Promise<Map<string, HandlerUsage>> {
  const result = await build({
    entryPoints: entries.map((entry, index) => ({ in: entry, out: `handler-${index}` })),
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    outdir: 'unused',
    // What the Lambda bundles leave out (the runtime's AWS SDK, LanceDB's native module) is not the handler's code.
    external: [...LAMBDA_BUNDLING.external],
  });
  return new Map(
    entries.map((entry, index) => {
      const code = result.outputFiles
        .filter((file) => basename(file.path).startsWith(`handler-${index}.`))
        .map((file) => file.text)
        .join('\n');
      const usage: HandlerUsage = {
        tables: new Set([...code.matchAll(TABLE_REFERENCE), ...code.matchAll(TABLE_HELPER_REFERENCE)].map((match) => match[1]!)),
        queues: new Set([...code.matchAll(QUEUE_SEND)].map((match) => match[1]!)),
        settingNames: new Set(code.match(SETTING_NAME)),
      };
      return [entry, usage];
    }),
  );
}
