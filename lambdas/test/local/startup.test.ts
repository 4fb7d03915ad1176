import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type RunningPlatform } from '../../src/entries/local/platform';

/** `npm start` beside a platform that already runs: one clear line and a non-zero exit, never a stack trace. */
const MAIN = resolve(import.meta.dirname, '../../src/entries/local/main.ts');
const folders: string[] = [];
const folder = () => {
  const path = mkdtempSync(join(tmpdir(), 'startup-'));
  folders.push(path);
  return path;
};

let running: RunningPlatform;
let dataDir: string;
beforeAll(async () => {
  dataDir = folder();
  running = await startPlatform({ port: 0, dataDir });
});
afterAll(async () => {
  await running.stop();
  for (const path of folders) rmSync(path, { recursive: true, force: true });
});

async function npmStart(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('a second npm start', () => {
  it('on the same DATA_DIR says so in one line and exits 1', async () => {
    const { code, stderr } = await npmStart({ DATA_DIR: dataDir, PORT: '0' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `DATA_DIR ${dataDir} is in use by another process (pid ${process.pid}): stop it, or start with DATA_DIR=<another folder>`,
    ]);
  });

  it('on the same port says so in one line, exits 1, and leaves its own DATA_DIR unlocked', async () => {
    const port = new URL(running.url).port;
    const otherDir = folder();
    const { code, stderr } = await npmStart({ DATA_DIR: otherDir, PORT: port });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([`port ${port} is in use on 127.0.0.1 (another \`npm start\`?): stop it, or start with PORT=<another port>`]);
    expect(existsSync(join(otherDir, 'platform.lock'))).toBe(false);
  });
});

it('takes over the lock a crashed platform left behind', async () => {
  const crashedDir = folder();
  const exited = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  writeFileSync(join(crashedDir, 'platform.lock'), exited.stdout.trim());
  const platform = await startPlatform({ port: 0, dataDir: crashedDir });
  await platform.stop();
  expect(existsSync(join(crashedDir, 'platform.lock'))).toBe(false);
});
