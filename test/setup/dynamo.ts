import type { TestProject } from 'vitest/node';
import { startDynaliteProcess } from '../../bench/dynalite-process';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The tier's dynalite stores, one per worker (lambdas/test/support/platform.ts picks its worker's). */
    dynamoEndpoints?: string[];
  }
}

/**
 * The global setup of the tiers that start platforms: one dynalite per worker, each in a process of its own and in
 * memory, instead of one per test file. Each file's platform keeps its tables apart by a table prefix of its own
 * (startTestPlatform), so files still share no state.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const stores = await Promise.all(Array.from({ length: workers }, () => startDynaliteProcess()));
  project.provide(
    'dynamoEndpoints',
    stores.map((store) => store.endpoint),
  );
  return async () => void (await Promise.all(stores.map((store) => store.stop())));
}
