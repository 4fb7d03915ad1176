import { build } from 'esbuild';
import { QUEUE_NAMES } from '@service/shared';
import { LAMBDA_BUNDLING } from '../../lib/lambda-bundling';

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

/** One esbuild run per handler file, however many tests ask. */
const usages = new Map<string, Promise<HandlerUsage>>();

/**
 * What a handler's code can reach: esbuild bundles it as the Lambda bundle is built, tree-shaking away exports the
 * handler never calls, and the remaining code is scanned for table and queue references and setting names.
 */
export function handlerUsage(entry: string): Promise<HandlerUsage> {
  let usage = usages.get(entry);
  if (!usage) usages.set(entry, (usage = scan(entry)));
  return usage;
}

async function scan(entry: string): Promise<HandlerUsage> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    outdir: 'unused',
    // What the Lambda bundles leave out (the runtime's AWS SDK, LanceDB's native module) is not the handler's code.
    external: [...LAMBDA_BUNDLING.external],
  });
  const code = result.outputFiles.map((file) => file.text).join('\n');
  return {
    tables: new Set([...code.matchAll(TABLE_REFERENCE), ...code.matchAll(TABLE_HELPER_REFERENCE)].map((match) => match[1]!)),
    queues: new Set([...code.matchAll(QUEUE_SEND)].map((match) => match[1]!)),
    settingNames: new Set(code.match(SETTING_NAME)),
  };
}
