import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/infra/deps';
import { enqueueNewRun, RUN_LEASE_MS, takeRun } from '../../src/domains/runs/runs';
import { sweepRuns } from '../../src/domains/runs/runtime/run-sweeper';
import { usePlatform } from '../support/platform';

const later = (deps: Deps, ms: number): Deps => ({ ...deps, now: () => new Date(Date.now() + ms) });

/**
 * A crash under load leaves more runs `running` than one read of the index used to hold (100). After the restart the
 * oldest are taken up again and run under fresh leases, so a sweep that read only the oldest 100 found nothing to do
 * at every turn, while the newer runs, their runner dead, waited past the minute docs/rest-api.md promises.
 */
describe('the sweep after a crash that left many runs behind', () => {
  const ctx = usePlatform();
  const HELD = 110;
  const LAPSED = 20;

  it('takes up every run whose lease lapsed, behind more than a hundred older runs still held by live runners', async () => {
    const { deps } = ctx.platform;
    await ctx.platform.queue.stop();
    const leasesAgo = (leases: number) => later(deps, -leases * (RUN_LEASE_MS + 1_000));
    const newRun = (at: Deps, n: number) =>
      enqueueNewRun(at, { workspaceId: ctx.platform.demo.workspaceId, agentId: ctx.agentId, instruction: `Say hello ${n}`, autonomy: 'full' });
    // The older runs: taken up again after the restart, their runners alive (their leases are current).
    for (let n = 0; n < HELD; n++) expect(await takeRun(deps, (await newRun(leasesAgo(3), n)).runId)).toBeDefined();
    // The newer ones: their runner died with the process a lease ago.
    const lapsed: string[] = [];
    for (let n = 0; n < LAPSED; n++) {
      const run = await newRun(leasesAgo(2), HELD + n);
      expect(await takeRun(leasesAgo(1), run.runId)).toBeDefined();
      lapsed.push(run.runId);
    }
    const report = await sweepRuns(deps);
    expect(report.failed).toEqual([]);
    expect(report.enqueued.sort()).toEqual(lapsed.sort());
  }, 120_000);
});
