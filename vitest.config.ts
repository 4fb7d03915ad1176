import { defineConfig } from 'vitest/config';

// One run covers every workspace. Each test file starts its own in-memory platform on a free port,
// so files run in parallel without sharing state. Two files at a time whatever the cores: most of a file's time is
// spent waiting (HTTP, a browser, a child process, a queue's visibility), and vitest's default on a 2-core machine
// (cores - 1) runs one file at a time.
export default defineConfig({
  test: {
    include: ['{shared,webhooks,lambdas,offline-model,embed,dashboard,skill-sdk,cdk}/test/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
