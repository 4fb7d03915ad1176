import { availableParallelism } from 'node:os';

/**
 * LanceDB's CPU pool has max(1, CPUs - 2) threads: one on a host of 3 CPUs or fewer (this 2-core machine; a Lambda
 * sandbox shows 2). With one thread, LanceDB 0.31's full-text index writer deadlocks, every thread parked and no error,
 * once an index build or an optimize writes more than one batch of posting lists: the 100,000-passage bench hung in
 * its first optimize (lancedb#3568, fixed upstream by lance#7423 in releases after the one pinned here). Two threads
 * or more avoid it. The native code reads LANCE_CPU_THREADS from the operating system's environment when it first
 * writes an index, so this runs on the main thread (Node's process.env reaches the operating system only there)
 * before LanceDB does any work; a value set by the operator is kept.
 */
export function giveLanceTwoCpuThreads(env: NodeJS.ProcessEnv = process.env): void {
  env.LANCE_CPU_THREADS ??= String(Math.max(2, availableParallelism() - 2));
}
