import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { failRun, findRun, RUN_HEARTBEAT_MS, type StoredRun } from '../../src/domains/runs/runs';
import { usePlatform } from '../support/platform';
import { command, contactsNamed, until } from '../support/runs';
import { scriptedModel } from '../support/scripted-model';

/** The scripted model of a run that adds a contact, whose first turn waits until the test opens the gate. */
function gatedContactRun(name: string) {
  const script = scriptedModel([
    { toolCalls: [{ toolName: 'contacts__create', input: { name, email: 'lease@example.com' } }] },
    { text: `Added ${name}.` },
    { text: '{"result":"ok","summary":"Added."}' },
  ]);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let entered!: () => void;
  const waiting = new Promise<void>((resolve) => (entered = resolve));
  let calls = 0;
  const firstWaits = async () => {
    calls += 1;
    if (calls === 1) {
      entered();
      await gate;
    }
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options: LanguageModelV4CallOptions) => (await firstWaits(), script.doGenerate(options)),
    doStream: async (options: LanguageModelV4CallOptions) => (await firstWaits(), script.doStream(options)),
  });
  return { model, open, waiting };
}

describe("a run's lease, renewed by its working runner", () => {
  const renewed = gatedContactRun('Beating Bea');
  const ctx = usePlatform({ model: renewed.model, env: { RATE_LIMIT_PER_MINUTE: '100000' } });

  it('is renewed while the runner works, so a run may outlast its first lease: it completes on its first attempt, its action done once', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Add Beating Bea', autonomy: 'full' });
    await renewed.waiting;
    const taken = (await findRun(ctx.platform.deps, runId))!;
    const beaten = await until(
      () => findRun(ctx.platform.deps, runId),
      (run) => run!.leaseUntil! > taken.leaseUntil!,
      RUN_HEARTBEAT_MS * 4,
    );
    expect(beaten).toMatchObject({ status: 'running', leaseId: taken.leaseId, attempts: 1 });
    renewed.open();
    const done = await until(
      () => findRun(ctx.platform.deps, runId),
      (run): run is StoredRun => run?.status === 'completed',
    );
    expect(done).toMatchObject({ attempts: 1, actedAt: expect.any(String) });
    expect(await contactsNamed(ctx.api, 'Beating Bea')).toBe(1);
  }, 60_000);
});

describe('a runner that lost its lease', () => {
  const lost = gatedContactRun('Lost Lou');
  const ctx = usePlatform({ model: lost.model, env: { RATE_LIMIT_PER_MINUTE: '100000' } });

  it('performs no action of the run once it was given up (failed, as the sweeper fails a lapsed run), and leaves its verdict alone', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Add Lost Lou', autonomy: 'full' });
    await lost.waiting;
    expect(await failRun(ctx.platform.deps, runId, 'The runner stopped before finishing the run')).toBe(true);
    lost.open();
    await until(
      () => ctx.platform.queue.depth('runs'),
      (depth) => depth === 0,
    );
    expect(await findRun(ctx.platform.deps, runId)).toMatchObject({ status: 'failed', error: 'The runner stopped before finishing the run' });
    expect(await contactsNamed(ctx.api, 'Lost Lou')).toBe(0);
  }, 60_000);
});
