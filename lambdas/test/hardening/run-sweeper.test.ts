import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/infra/deps';
import { enqueueNewRun, findRun, listRuns, markActing, MAX_RUN_ATTEMPTS, RUN_LEASE_MS, takeRun, type StoredRun } from '../../src/domains/runs/runs';
import { listRecords } from '../../src/domains/records/records';
import { DEFAULT_SWEEP_BOUNDS, sweepRuns } from '../../src/domains/runs/runtime/run-sweeper';
import { orphanRunMessages } from '../support/orphans';
import { usePlatform } from '../support/platform';
import { until } from '../support/runs';

const later = (deps: Deps, ms: number): Deps => ({ ...deps, now: () => new Date(Date.now() + ms) });

describe('a stored run always gets its queue message; the sweeper finishes what a crash left', () => {
  // A held run's second delivery comes back after the visibility timeout; short here so the test sees it end.
  const ctx = usePlatform({ queue: { visibilityTimeoutMs: { runs: 500 } } });
  const newRun = (deps: Deps, instruction: string) =>
    enqueueNewRun(deps, { workspaceId: ctx.platform.demo.workspaceId, agentId: ctx.agentId, instruction, autonomy: 'full' });
  const finished = (run: StoredRun | undefined) => run?.status === 'completed' || run?.status === 'failed';

  it('enqueues a run whose process died between writing it and sending its message, and the run completes', async () => {
    const { deps } = ctx.platform;
    const crashing: Deps = { ...deps, queue: { send: () => new Promise<void>(() => undefined) } };
    const instruction = 'Please add Stranded Sam (sam@example.com) to my contacts.';
    void newRun(crashing, instruction);
    const runs = await until(
      () => listRuns(deps, ctx.platform.demo.workspaceId, ctx.agentId, 100),
      (listed) => listed.some((run) => run.instruction === instruction),
    );
    const stranded = runs.find((run) => run.instruction === instruction)!.runId;
    expect(await orphanRunMessages(deps)).toEqual([]);
    expect((await sweepRuns(deps)).enqueued).not.toContain(stranded);
    expect((await sweepRuns(later(deps, DEFAULT_SWEEP_BOUNDS.unsentAfterMs + 1_000))).enqueued).toContain(stranded);
    expect((await until(() => findRun(deps, stranded), finished))?.status).toBe('completed');
    expect(await orphanRunMessages(deps)).toEqual([]);
  });

  /** `leases` leases (and a second each) ago. */
  const leasesAgo = (deps: Deps, leases: number) => later(deps, -leases * (RUN_LEASE_MS + 1_000));
  /** A runner that took the run `leases` leases ago and died: nobody renewed the lease, which has lapsed. */
  const diedHolding = (deps: Deps, runId: string, leases = 1) => takeRun(leasesAgo(deps, leases), runId);

  it('takes up again a run whose runner died before acting, once its lease lapsed, and the action happens once', async () => {
    const { deps } = ctx.platform;
    await ctx.platform.queue.stop();
    const held = await newRun(deps, 'Say hello');
    expect(await takeRun(deps, held.runId)).toBeDefined();
    expect(await sweepRuns(deps)).toEqual({ enqueued: [], failed: [], expired: [] });
    const lapsed = await newRun(leasesAgo(deps, 2), 'Please add Lapsed Lea (lea@example.com) to my contacts.');
    expect(await diedHolding(deps, lapsed.runId)).toBeDefined();
    const report = await sweepRuns(deps);
    expect(report.enqueued).toContain(lapsed.runId);
    expect(report.failed).not.toContain(lapsed.runId);
    ctx.platform.queue.start();
    const done = await until(() => findRun(deps, lapsed.runId), finished);
    expect(done).toMatchObject({ status: 'completed', attempts: 2 });
    const contacts = await listRecords<{ name: string }>(deps, ctx.platform.demo.workspaceId, 'contact', { limit: 100 });
    expect(contacts.items.filter((contact) => contact.name === 'Lapsed Lea')).toHaveLength(1);
  });

  it('fails, with the reason and its failed follow-ups, a run whose runner died after it began acting, and never runs it again', async () => {
    const { deps } = ctx.platform;
    await ctx.platform.queue.stop();
    const run = await newRun(leasesAgo(deps, 2), 'Please add Acted Ada (ada@example.com) to my contacts.');
    const { lease } = (await diedHolding(deps, run.runId))!;
    expect(await markActing(deps, lease)).toBe(true);
    const report = await sweepRuns(deps);
    expect(report.failed).toContain(run.runId);
    ctx.platform.queue.start();
    const failed = await until(
      () => findRun(deps, run.runId),
      (stored) => stored?.followUpsDone === true,
    );
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('it was not run again, so that no action is done twice') });
    await until(
      () => ctx.platform.queue.depth('runs'),
      (depth) => depth === 0,
    );
    const contacts = await listRecords<{ name: string }>(deps, ctx.platform.demo.workspaceId, 'contact', { limit: 100 });
    expect(contacts.items.filter((contact) => contact.name === 'Acted Ada')).toHaveLength(0);
  });

  it('fails a run whose runners died on every attempt', async () => {
    const { deps } = ctx.platform;
    await ctx.platform.queue.stop();
    const run = await newRun(leasesAgo(deps, MAX_RUN_ATTEMPTS + 1), 'Say hello');
    for (let attempt = 0; attempt < MAX_RUN_ATTEMPTS; attempt += 1) expect(await diedHolding(deps, run.runId, MAX_RUN_ATTEMPTS - attempt)).toBeDefined();
    expect(await takeRun(deps, run.runId)).toBeUndefined();
    expect((await sweepRuns(deps)).failed).toContain(run.runId);
    ctx.platform.queue.start();
    const failed = await until(
      () => findRun(deps, run.runId),
      (stored) => stored?.followUpsDone === true,
    );
    expect(failed).toMatchObject({ status: 'failed', error: `The runner stopped before finishing the run, ${MAX_RUN_ATTEMPTS} times` });
    await until(
      () => ctx.platform.queue.depth('runs'),
      (depth) => depth === 0,
    );
  });

  it('runs a run once when its message arrives twice', async () => {
    const { deps } = ctx.platform;
    await ctx.platform.queue.stop();
    const run = await newRun(deps, 'Please add Twice Tia (tia@example.com) to my contacts.');
    await deps.queue.send('runs', { runId: run.runId });
    ctx.platform.queue.start();
    await until(() => findRun(deps, run.runId), finished);
    await until(
      () => ctx.platform.queue.depth('runs'),
      (depth) => depth === 0,
    );
    const contacts = await listRecords<{ name: string }>(deps, ctx.platform.demo.workspaceId, 'contact', { limit: 100 });
    expect(contacts.items.filter((contact) => contact.name === 'Twice Tia')).toHaveLength(1);
  });
});
