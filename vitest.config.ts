import { defineConfig } from 'vitest/config';
import { testTiers } from './test/tiers.ts';

// One run covers every workspace, in four projects (test/tiers.ts says which file goes where): `npm test` runs them
// all, `npm run test:fast` the unit tier alone. Two files at a time whatever the cores: most of a file's time is spent
// waiting (HTTP, a browser, a child process, a queue's visibility), and vitest's default on a 2-core machine
// (cores - 1) runs one file at a time. What is costly to start is started once per run by a tier's global setup:
// - platform and browser: one dynalite per worker, each file's platform on tables of its own prefix (test/setup/dynamo.ts);
// - browser: one Chromium server the files connect to (test/setup/chromium-server.ts);
// - bundled: one `cdk synth` into a shared cloud assembly (test/setup/cdk-synth.ts).
const tiers = testTiers(import.meta.dirname);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: tiers.unit } },
      { extends: true, test: { name: 'platform', include: tiers.platform, globalSetup: ['test/setup/dynamo.ts'] } },
      { extends: true, test: { name: 'browser', include: tiers.browser, globalSetup: ['test/setup/dynamo.ts', 'test/setup/chromium-server.ts'] } },
      { extends: true, test: { name: 'bundled', include: tiers.bundled, globalSetup: ['test/setup/cdk-synth.ts'] } },
    ],
  },
});
