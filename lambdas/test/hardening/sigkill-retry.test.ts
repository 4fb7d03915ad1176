import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_LOCK_MS } from '../../src/infra/store/idempotency';
import { apiClient, newDemoKey } from '../support/platform';

const CHILD = new URL('../support/crash-child.ts', import.meta.url).pathname;

/** Starts the platform in a child process and resolves with its API base URL once it listens. */
function startChild(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  const ready = new Promise<{ apiBaseUrl: string; agentId: string }>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+) (\S+)/.exec(output);
      if (match) resolve({ apiBaseUrl: match[1]!, agentId: match[2]! });
    });
    void exited.then((signal) => reject(new Error(`the platform exited (${signal}) before it was ready`)));
  });
  return { child, exited, ready };
}

describe('a process killed with SIGKILL between acting and storing its answer', () => {
  it('lets the client retry on the restarted platform without performing the command twice', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sigkill-'));
    const env = { DATA_DIR: dataDir, SERVICE_DEMO_API_KEY: newDemoKey(), PORT: '0' };
    const request = (agentId: string) => ({ body: { agent_id: agentId, instruction: 'Please add Kill Kim (kim@example.com) to my contacts.', autonomy: 'full' }, headers: { 'idempotency-key': 'sigkill-1' } });
    try {
      // The answer of the claimed, written and enqueued command is about to be stored: the machine dies.
      const doomed = startChild({ ...env, CRASH_AT: 'UpdateCommand:idempotency::done' });
      const first = await doomed.ready;
      await expect(apiClient(first.apiBaseUrl, env.SERVICE_DEMO_API_KEY)('agents/command/', request(first.agentId))).rejects.toThrow();
      expect(await doomed.exited).toBe('SIGKILL');

      const restarted = startChild({ ...env, CLOCK_SHIFT_MS: String(IDEMPOTENCY_LOCK_MS + 1_000) });
      try {
        const { apiBaseUrl, agentId } = await restarted.ready;
        const api = apiClient(apiBaseUrl, env.SERVICE_DEMO_API_KEY);
        const retry = await api<{ run: { run_id: string } }>('agents/command/', request(agentId));
        expect(retry.status).toBe(202);
        const runs = await api<{ runs: { run_id: string; instruction: string }[] }>('agents/runs/', { query: { agent_id: agentId, limit: '100' } });
        expect(runs.body.data.runs.filter((run) => run.instruction.includes('Kill Kim')).map((run) => run.run_id)).toEqual([retry.body.data.run.run_id]);
        const replay = await api<{ run: { run_id: string } }>('agents/command/', request(agentId));
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body.data.run.run_id).toBe(retry.body.data.run.run_id);
      } finally {
        restarted.child.kill('SIGTERM');
        await restarted.exited;
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
