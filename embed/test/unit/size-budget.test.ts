import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUDGETS, gzipSize } from '../../bench/size';

// The loader alone; everything it takes to show the FAB and open the panel is weighed in Chromium
// (test/browser/first-open-size.e2e.test.ts).

const dist = resolve(import.meta.dirname, '../../dist');

describe('size budget (gzip)', () => {
  it('has a build to measure', () => {
    expect(existsSync(resolve(dist, 'loader.js')), 'run `npm run build -w embed` first').toBe(true);
  });

  it(`loader.js is at most ${BUDGETS.loader} bytes`, () => {
    expect(gzipSize(resolve(dist, 'loader.js'))).toBeLessThanOrEqual(BUDGETS.loader);
  });
});
