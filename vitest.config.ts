import { defineConfig } from 'vitest/config';
import { testTiers } from './test/tiers.ts';

// One run covers every workspace, in four projects (test/tiers.ts says which file goes where): `npm test` runs them
// all, `npm run test:fast` the unit tier alone. Two files at a time whatever the cores: most of a file's time is spent
// waiting (HTTP, a browser, a child process, a queue's visibility), and vitest's default on a 2-core machine
// (cores - 1) runs one file at a time. What is costly to start is started once per run by a tier's global setup:
// - platform and browser: one dynalite per worker, each file's platform on tables of its own prefix (test/setup/dynamo.ts);
// - browser: one Chromium server the files connect to (test/setup/chromium-server.ts);
// - bundled: one `cdk synth` into a shared cloud assembly (test/setup/cdk-synth.ts).
// The unit, platform and browser tiers run unisolated: a worker imports the code once and runs file after file in it,
// where an isolated run starts a process per file and imports everything again (about 2 s of CPU per platform file,
// a quarter of the suite's time). Their files share no state but the modules: a file that spies on a global
// restores it in its afterAll, and the platform's module-level caches are keyed by what each file's platform makes.
// The bundled tier stays isolated (a few long files, which load the cloud assembly's bundles into the process).
const tiers = testTiers(import.meta.dirname);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: tiers.unit, isolate: false } },
      { extends: true, test: { name: 'platform', include: tiers.platform, isolate: false, globalSetup: ['test/setup/dynamo.ts'] } },
      {
        extends: true,
        test: { name: 'browser', include: tiers.browser, isolate: false, globalSetup: ['test/setup/dynamo.ts', 'test/setup/chromium-server.ts'] },
      },
      { extends: true, test: { name: 'bundled', include: tiers.bundled, globalSetup: ['test/setup/cdk-synth.ts'] } },
    ],
  },
});
