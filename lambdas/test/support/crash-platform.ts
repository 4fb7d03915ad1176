import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { apiClient, newDemoKey } from './platform';

const CHILD = new URL('./crash-child.ts', import.meta.url).pathname;

/**
 * Starts the local platform in a child process (crash-child.ts: its settings say where it kills itself with SIGKILL)
 * and resolves `ready` with its API base URL once it listens; `exited` with the signal that ended it; `worked(queue)`: the
 * messages of that queue it has worked to their end (not failed) so far.
 */
export function startCrashChild(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  // How many messages of each queue it has worked (its WORKED lines).
  const counts = new Map<string, number>();
  let lines = '';
  child.stdout.on('data', (chunk: Buffer) => {
    lines += chunk.toString();
    for (const line of lines.split('\n').slice(0, -1)) {
      const worked = /^WORKED (\S+) (\d+)$/.exec(line);
      if (worked) counts.set(worked[1]!, (counts.get(worked[1]!) ?? 0) + Number(worked[2]));
    }
    lines = lines.slice(lines.lastIndexOf('\n') + 1);
  });
  const worked = (queue: string) => counts.get(queue) ?? 0;
  const ready = new Promise<{ apiBaseUrl: string; agentId: string; smtpPort: number }>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+) (\S+) (\d+)\n/.exec(output);
      if (match) resolve({ apiBaseUrl: match[1]!, agentId: match[2]!, smtpPort: Number(match[3]) });
    });
    void exited.then((signal) => reject(new Error(`the platform exited (${signal}) before it was ready`)));
  });
  return { child, exited, ready, worked };
}

type Api = ReturnType<typeof apiClient>;

/**
 * The platform on a fresh data dir dies (SIGKILL, where `crash` says) while doing what `act` asks of it, then starts
 * again on the same data (with `restart`'s settings) for `check`, which is told the data dir, its API base URL, SMTP port and `worked`.
 */
export async function crashThenRestart(
  crash: Record<string, string>,
  restart: Record<string, string>,
  act: (api: Api, agentId: string, apiBaseUrl: string, smtpPort: number) => Promise<unknown>,
  check: (api: Api, agentId: string, dataDir: string, apiBaseUrl: string, smtpPort: number, worked: (queue: string) => number) => Promise<void>,
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sigkill-'));
  const env = { DATA_DIR: dataDir, SERVICE_DEMO_API_KEY: newDemoKey(), PORT: '0' };
  try {
    const doomed = startCrashChild({ ...env, ...crash });
    const first = await doomed.ready;
    await act(apiClient(first.apiBaseUrl, env.SERVICE_DEMO_API_KEY), first.agentId, first.apiBaseUrl, first.smtpPort);
    expect(await doomed.exited).toBe('SIGKILL');
    const restarted = startCrashChild({ ...env, ...restart });
    try {
      const { apiBaseUrl, agentId, smtpPort } = await restarted.ready;
      await check(apiClient(apiBaseUrl, env.SERVICE_DEMO_API_KEY), agentId, dataDir, apiBaseUrl, smtpPort, restarted.worked);
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
