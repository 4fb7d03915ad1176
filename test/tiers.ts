import { globSync, readFileSync } from 'node:fs';

// The test tiers vitest.config.ts runs as projects, each file in exactly one. A file's tier follows from where it
// lives and what it imports, so a new test lands in the right tier without a list to keep:
// - bundled: the deployed form: the CDK app's tests (the full synth the tier's global setup runs once, and the wiring
//   tests' synths in process) and the packed packages;
// - browser: a real Chromium (the tier's global setup starts one browser server the files connect to);
// - platform: a local platform (the store, the queue, HTTP), or `npm start` itself;
// - unit: everything else, pure and quick: `npm run test:fast`, the inner loop.

/** Every test file of the repository. */
export const TEST_FILES = ['{shared,webhooks,lambdas,offline-model,embed,dashboard,skill-sdk,cdk}/test/**/*.test.{ts,tsx}', 'test/**/*.test.ts'];

const BUNDLED = ['lambdas/test/bundled/bundled-platform.test.ts', 'cdk/test/**/*.test.ts', 'test/packages/**/*.test.ts'];

/** A browser test lives in a `browser` folder, is named `*.e2e.test.*`, or imports the browser helpers. */
const isBrowser = (file: string, source: string) => /(^|\/)browser\//.test(file) || /\.e2e\.test\./.test(file) || /test\/browser\/chromium'/.test(source);

/** A platform test imports what starts the local platform (or its store), or the test helpers that do. */
const isPlatform = (source: string) =>
  /from '[./]*(src\/entries\/local\/|support\/(platform|crash-platform)')/.test(source) || /entries\/local\/main\.ts/.test(source);

export type Tier = 'unit' | 'platform' | 'browser' | 'bundled';

/** The files of each tier, as paths relative to the repository root (vitest's `include`). */
export function testTiers(root: string): Record<Tier, string[]> {
  const tiers: Record<Tier, string[]> = { unit: [], platform: [], browser: [], bundled: [] };
  const bundled = new Set(globSync(BUNDLED, { cwd: root }));
  for (const file of globSync(TEST_FILES, { cwd: root, exclude: (name) => name === 'node_modules' })) {
    const source = readFileSync(`${root}/${file}`, 'utf8');
    const tier: Tier = bundled.has(file) ? 'bundled' : isBrowser(file, source) ? 'browser' : isPlatform(source) ? 'platform' : 'unit';
    tiers[tier].push(file);
  }
  return tiers;
}
