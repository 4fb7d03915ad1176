import { describe, expect, it } from 'vitest';
import { crashThenRestart } from '../support/crash-platform';
import type { ApiCall } from '../support/platform';
import { contactsNamed, waitForRun } from '../support/runs';

/**
 * A run whose runner died is taken up again, or failed, once its queue message's visibility lapses: a minute in the
 * platform, 5 s here (QUEUE_VISIBILITY_MS), so the test waits for the mechanism, not for the minute.
 */
const VISIBILITY = { QUEUE_VISIBILITY_MS: 'runs=5000' };
const SETTLED_AFTER_RESTART_MS = 60_000;
/** The test polls the run's status as often as a minute's default rate limit would not allow. */
const RESTART = { RATE_LIMIT_PER_MINUTE: '100000' };

const instructionFor = (name: string) => `Please add ${name} (${name.split(' ')[0]!.toLowerCase()}@example.com) to my contacts.`;

/** Commands the agent; the answer may never come, since the process dies while the run is under way. */
const commandAdding = (name: string) => (api: ApiCall, agentId: string) =>
  api('agents/command/', { body: { agent_id: agentId, instruction: instructionFor(name), autonomy: 'full' } }).catch(() => undefined);

async function runAdding(api: ApiCall, agentId: string, name: string): Promise<string> {
  const runs = await api<{ runs: { run_id: string; instruction: string }[] }>('agents/runs/', { query: { agent_id: agentId, limit: '100' } });
  const matching = runs.body.data.runs.filter((run) => run.instruction === instructionFor(name));
  expect(matching).toHaveLength(1);
  return matching[0]!.run_id;
}

describe('a runner killed with SIGKILL in the middle of a run, then restarted on the same data', () => {
  it('runs it again once its message comes back when it died before the run acted, and the action happens once', async () => {
    await crashThenRestart(
      // The runner has just taken the run under its lease: the machine dies.
      { CRASH_AFTER: 'UpdateCommand:runs:ADD attempts', ...VISIBILITY },
      RESTART,
      commandAdding('Lease Lena'),
      async (api, agentId) => {
        const run = await waitForRun(api, await runAdding(api, agentId, 'Lease Lena'), SETTLED_AFTER_RESTART_MS);
        expect(run).toMatchObject({ status: 'completed', error: null });
        expect(await contactsNamed(api, 'Lease Lena')).toBe(1);
      },
    );
  }, 150_000);

  it('fails it once its message comes back, with the reason, when it died after the run acted, and never repeats the action', async () => {
    await crashThenRestart(
      // The contact the run asked for has just been stored: the machine dies before the run could finish.
      { CRASH_AFTER: 'PutCommand:records', ...VISIBILITY },
      RESTART,
      commandAdding('Acted Abe'),
      async (api, agentId) => {
        const run = await waitForRun(api, await runAdding(api, agentId, 'Acted Abe'), SETTLED_AFTER_RESTART_MS);
        expect(run.status).toBe('failed');
        expect(run.error).toContain('it was not run again, so that no action is done twice');
        expect(await contactsNamed(api, 'Acted Abe')).toBe(1);
      },
    );
  }, 150_000);
});
