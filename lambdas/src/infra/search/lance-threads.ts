import { availableParallelism } from 'node:os';

/**
 * LanceDB's CPU pool has max(1, CPUs - 2) threads: one on a host of 3 CPUs or fewer (this 2-core machine; a Lambda
 * sandbox shows 2). LanceDB 0.31's full-text index writer holds a pool thread while it waits for another pool thread
 * to encode what it wrote: once an index build or an optimize writes more than one batch of posting lists, a pool
 * with no thread to spare deadlocks, every thread parked and no error (lancedb#3568, fixed upstream by lance#7423 in
 * releases after the one pinned here). The 100,000-passage bench hung so in its first optimize (~130,000 rows). The
 * rule upstream keeps (lance#7350): fewer writers at once than pool threads. An optimize may write each of a table's
 * full-text indexes (`indexes`), so the pool gets one thread more than those. The native code reads
 * LANCE_CPU_THREADS from the operating system's environment when it first writes an index, so this runs on the main
 * thread (Node's process.env reaches the operating system only there) before LanceDB does any work; a value set by
 * the operator is kept.
 */
export function giveLanceSpareCpuThreads(indexes: number, env: NodeJS.ProcessEnv = process.env): void {
  env.LANCE_CPU_THREADS ??= String(Math.max(availableParallelism() - 2, indexes + 1));
}
