import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCrashChild } from '../support/crash-platform';
import { apiClient, newDemoKey } from '../support/platform';
import { command, type RunView } from '../support/runs';
import { startReceiver } from '../webhooks/receiver';

/**
 * The platform is killed with SIGKILL while it holds 120 acknowledged commands, each adding a contact, with a webhook
 * subscribed, then started again on the same data. Within a minute of the restart every run the dead process held is
 * taken up again or ended (docs/rest-api.md), then every run ends, each with its event, and no contact is added twice.
 */
const COMMANDS = 120;
const SETTLED_AFTER_RESTART_MS = 60_000;
const ENV = { RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_LOCAL: '1' };
/** A name of letters only (as people's names are), one per command: Load Baa, Load Bab, … */
const nameOf = (n: number) => `Load B${String.fromCharCode(97 + Math.floor(n / 26))}${String.fromCharCode(97 + (n % 26))}`;
const instructionOf = (n: number) => `Please add ${nameOf(n)} (${nameOf(n).split(' ')[1]!.toLowerCase()}@example.com) to my contacts.`;
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** Polls `pending` (what is still not as wanted) until it is empty or `timeoutMs` passed: what is left then. */
async function pollUntil(pending: () => Promise<string[]>, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await pending();
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Every contact's name, page after page. */
async function contactNames(api: ReturnType<typeof apiClient>): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { contacts: { name: string }[]; next_cursor: string | null } = (
      await api<{ contacts: { name: string }[]; next_cursor: string | null }>('contacts/list/', { query: { limit: '100', ...(cursor ? { cursor } : {}) } })
    ).body.data;
    names.push(...page.contacts.map((contact) => contact.name));
    cursor = page.next_cursor;
  } while (cursor);
  return names;
}

describe('a platform killed with SIGKILL under load, then restarted on the same data', () => {
  it('takes up again within a minute of the restart every run the dead process held, then ends them all, each with its event, and adds no contact twice', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sigkill-load-'));
    const key = newDemoKey();
    const env = { DATA_DIR: dataDir, SERVICE_DEMO_API_KEY: key, PORT: '0', ...ENV };
    const hooks = await startReceiver();
    try {
      const doomed = startCrashChild(env);
      const first = await doomed.ready;
      const api = apiClient(first.apiBaseUrl, key);
      expect((await api('webhooks/create/', { body: { url: hooks.url, events: ['agent.command.completed', 'agent.command.failed'] } })).status).toBe(201);
      const runIds = await Promise.all(Array.from({ length: COMMANDS }, (_, n) => command(api, { agent_id: first.agentId, instruction: instructionOf(n), autonomy: 'full' })));
      // Killed while they run: some done, most not yet.
      await hooks.waitFor((requests) => requests.length >= 10, 120_000);
      doomed.child.kill('SIGKILL');
      expect(await doomed.exited).toBe('SIGKILL');

      const restarted = startCrashChild(env);
      try {
        const { apiBaseUrl } = await restarted.ready;
        const again = apiClient(apiBaseUrl, key);
        const restartedAt = Date.now();
        const status = async (runId: string) => (await again<RunView & { steps: { type: string; status?: string; at: string }[] }>('agents/command_status/', { query: { run_id: runId } })).body.data;
        const readAll = () => Promise.all(runIds.map(status));
        // The runs the dead process held: within a minute each is taken up again (a new `running` step) or ended.
        const stranded = (await readAll()).filter((run) => run.status === 'running').map((run) => run.run_id);
        const takenUp = (run: Awaited<ReturnType<typeof status>>) => ENDED.has(run.status) || run.steps.some((step) => step.type === 'status' && step.status === 'running' && Date.parse(step.at) >= restartedAt);
        const waiting = await pollUntil(async () => (await readAll()).filter((run) => stranded.includes(run.run_id) && !takenUp(run)).map((run) => run.run_id), SETTLED_AFTER_RESTART_MS);
        expect(waiting, 'runs of the dead process neither taken up again nor ended a minute after the restart').toEqual([]);
        const takenUpMs = Date.now() - restartedAt;
        // Then every run ends (those still queued wait their turn: the machine runs a few at a time).
        expect(await pollUntil(async () => (await readAll()).filter((run) => !ENDED.has(run.status)).map((run) => run.run_id), 300_000)).toEqual([]);
        const runs = await readAll();
        const completed = runs.filter((run) => run.status === 'completed');
        console.log(`crash under load: ${stranded.length} runs held at the kill, all taken up or ended ${takenUpMs} ms after the restart; ${completed.length} of ${COMMANDS} completed, ${runs.length - completed.length} failed, all ended ${Date.now() - restartedAt} ms after the restart`);
        // Each ended run's event arrives (the receiver dedupes nothing: one delivery per event is what it counts).
        const eventRunIds = () => new Set(hooks.requests.map((request) => request.event.data.run_id as string));
        await hooks.waitFor(() => runs.every((run) => eventRunIds().has(run.run_id)), 90_000);
        const names = await contactNames(again);
        for (let n = 0; n < COMMANDS; n++) {
          const contacts = names.filter((name) => name === nameOf(n)).length;
          expect(contacts, nameOf(n)).toBeLessThanOrEqual(1);
          if (runs[n]!.status === 'completed') expect(contacts, nameOf(n)).toBe(1);
        }
      } finally {
        restarted.child.kill('SIGTERM');
        await restarted.exited;
      }
    } finally {
      await hooks.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 600_000);
});
