import { defineConfig } from 'vitest/config';

// One run covers every workspace. Each test file starts its own in-memory platform on a free port,
// so files run in parallel without sharing state.
export default defineConfig({
  test: {
    include: ['{shared,webhooks,lambdas,offline-model,embed,dashboard,skill-sdk,cdk}/test/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
