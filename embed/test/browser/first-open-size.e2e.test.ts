import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS, measureFirstOpen } from '../../bench/size';
import { startHarness, type Harness } from './harness';

// What a visitor's browser downloads of the widget to see the FAB and open the panel, weighed as Chromium fetched it:
// the loader, the widget, every chunk opening loads and the avatar.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('the weight of the first open', () => {
  it(`is at most ${BUDGETS.firstOpen} bytes gzip, everything fetched from /embed/ included`, async () => {
    const { files, total } = await measureFirstOpen(h.browser, h.platform.url, h.agentId);
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['loader.js', 'widget.js']));
    expect(total, JSON.stringify(files)).toBeLessThanOrEqual(BUDGETS.firstOpen);
  });
});
