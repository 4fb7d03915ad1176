import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { apiClient, newDemoKey } from './platform';

const CHILD = new URL('./crash-child.ts', import.meta.url).pathname;

/**
 * Starts the local platform in a child process (crash-child.ts: its settings say where it kills itself with SIGKILL)
 * and resolves `ready` with its API base URL once it listens; `exited` with the signal that ended it.
 */
export function startCrashChild(env: Record<string, string>) {
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

type Api = ReturnType<typeof apiClient>;

/**
 * The platform on a fresh data dir dies (SIGKILL, where `crash` says) while doing what `act` asks of it, then starts
 * again on the same data (with `restart`'s settings) for `check`, which is told the data dir and its API base URL.
 */
export async function crashThenRestart(
  crash: Record<string, string>,
  restart: Record<string, string>,
  act: (api: Api, agentId: string, apiBaseUrl: string) => Promise<unknown>,
  check: (api: Api, agentId: string, dataDir: string, apiBaseUrl: string) => Promise<void>,
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sigkill-'));
  const env = { DATA_DIR: dataDir, SERVICE_DEMO_API_KEY: newDemoKey(), PORT: '0' };
  try {
    const doomed = startCrashChild({ ...env, ...crash });
    const first = await doomed.ready;
    await act(apiClient(first.apiBaseUrl, env.SERVICE_DEMO_API_KEY), first.agentId, first.apiBaseUrl);
    expect(await doomed.exited).toBe('SIGKILL');
    const restarted = startCrashChild({ ...env, ...restart });
    try {
      const { apiBaseUrl, agentId } = await restarted.ready;
      await check(apiClient(apiBaseUrl, env.SERVICE_DEMO_API_KEY), agentId, dataDir, apiBaseUrl);
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
