import { describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_BOUNDS } from '../../src/domains/runs/runtime/run-sweeper';
import { IDEMPOTENCY_LOCK_MS } from '../../src/infra/store/idempotency';
import { crashThenRestart } from '../support/crash-platform';

describe('a process killed with SIGKILL between acting and storing its answer', () => {
  it('lets the client retry on the restarted platform without performing the command twice', async () => {
    const request = (agentId: string) => ({
      body: { agent_id: agentId, instruction: 'Please add Kill Kim (kim@example.com) to my contacts.', autonomy: 'full' },
      headers: { 'idempotency-key': 'sigkill-1' },
    });
    // The answer of the claimed, written and enqueued command is about to be stored: the machine dies.
    await crashThenRestart(
      { CRASH_AT: 'UpdateCommand:idempotency::done' },
      { CLOCK_SHIFT_MS: String(IDEMPOTENCY_LOCK_MS + 1_000) },
      (api, agentId) => expect(api('agents/command/', request(agentId))).rejects.toThrow(),
      async (api, agentId) => {
        const retry = await api<{ run: { run_id: string } }>('agents/command/', request(agentId));
        expect(retry.status).toBe(202);
        const runs = await api<{ runs: { run_id: string; instruction: string }[] }>('agents/runs/', { query: { agent_id: agentId, limit: '100' } });
        expect(runs.body.data.runs.filter((run) => run.instruction.includes('Kill Kim')).map((run) => run.run_id)).toEqual([retry.body.data.run.run_id]);
        const replay = await api<{ run: { run_id: string } }>('agents/command/', request(agentId));
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body.data.run.run_id).toBe(retry.body.data.run.run_id);
      },
    );
  }, 90_000);

  it('finishes a command whose run was stored when the process died before its queue message was', async () => {
    await crashThenRestart(
      // The run's write lands, the queue message's (sent beside it) never does, and the machine dies before answering.
      { CRASH_AFTER: 'PutCommand:runs', HOLD: 'PutCommand:local-queue' },
      // Restarted later than the sweeper's bound: its next sweep enqueues the stranded run, which then completes.
      { CLOCK_SHIFT_MS: String(DEFAULT_SWEEP_BOUNDS.unsentAfterMs + 1_000), SWEEP_EVERY_MS: '200' },
      (api, agentId) =>
        expect(
          api('agents/command/', { body: { agent_id: agentId, instruction: 'Please add Orphan Olga (olga@example.com) to my contacts.', autonomy: 'full' } }),
        ).rejects.toThrow(),
      async (api, agentId) => {
        const runsOfOlga = async () =>
          (
            await api<{ runs: { run_id: string; status: string; instruction: string }[] }>('agents/runs/', { query: { agent_id: agentId, limit: '100' } })
          ).body.data.runs.filter((run) => run.instruction.includes('Orphan Olga'));
        const deadline = Date.now() + 30_000;
        let runs = await runsOfOlga();
        while (!(runs.length === 1 && runs[0]!.status === 'completed') && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          runs = await runsOfOlga();
        }
        expect(runs.map((run) => run.status)).toEqual(['completed']);
        const contacts = await api<{ contacts: { name: string }[] }>('contacts/list/', { query: { limit: '100' } });
        expect(contacts.body.data.contacts.filter((contact) => contact.name === 'Orphan Olga')).toHaveLength(1);
      },
    );
  }, 90_000);
});
