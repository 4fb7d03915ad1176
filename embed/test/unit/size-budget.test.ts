import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUDGETS, measureSizes } from '../../bench/size';

const dist = resolve(import.meta.dirname, '../../dist');

describe('size budget (gzip)', () => {
  it('has a build to measure', () => {
    expect(existsSync(resolve(dist, 'loader.js')), 'run `npm run build -w embed` first').toBe(true);
  });

  it(`loader.js is at most ${BUDGETS.loader} bytes and FAB + panel at most ${BUDGETS.firstOpen} bytes`, () => {
    const sizes = measureSizes(dist);
    expect(sizes.loader).toBeLessThanOrEqual(BUDGETS.loader);
    expect(sizes.firstOpen).toBeLessThanOrEqual(BUDGETS.firstOpen);
  });
});
