import { build } from 'esbuild';

export interface HandlerUsage {
  /** Logical table names the handler's own code passes to `store.table(...)` (or `physicalTableName`). */
  tables: Set<string>;
  /** Queues it sends to through `queue.send(...)`. */
  queues: Set<string>;
}

const TABLE_REFERENCE = /\b(?:table|physicalTableName)\((?:[^,()]*,\s*)?['"]([a-zA-Z]+)['"]/g;
/** The store helpers of infra/store/dynamo.ts that take the table by name after the store (`updateIf(deps.store, 'runs', …)`). */
const TABLE_HELPER_REFERENCE = /\b(?:updateIf|createOrFind)\d*\([^,()]*,\s*['"]([a-zA-Z]+)['"]/g;
const QUEUE_SEND = /\.send\(\s*['"](runs|webhooks)['"]/g;

/**
 * What a handler's code can reach: esbuild bundles it as the Lambda bundle is built, tree-shaking away exports the
 * handler never calls, and the remaining code is scanned for table and queue references.
 */
export async function handlerUsage(entry: string): Promise<HandlerUsage> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    outdir: 'unused',
  });
  const code = result.outputFiles.map((file) => file.text).join('\n');
  return {
    tables: new Set([...code.matchAll(TABLE_REFERENCE), ...code.matchAll(TABLE_HELPER_REFERENCE)].map((match) => match[1]!)),
    queues: new Set([...code.matchAll(QUEUE_SEND)].map((match) => match[1]!)),
  };
}
