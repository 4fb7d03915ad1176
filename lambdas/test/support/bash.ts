import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

/** A port free on loopback right now (for a script's own listener). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Runs a documented shell script with bash, strict mode, in its own process group, so a receiver it left behind dies with it. */
function runBash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-eu', '-o', 'pipefail', '-c', script], {
      cwd,
      env: { PATH: process.env.PATH!, ...env },
      detached: true,
      // No terminal, no socket on stdin: bash reads no startup file.
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      done({ code, stdout, stderr });
    });
  });
}

/** An answer of the REST API, as a documented script prints it: one JSON envelope per line. */
export interface PrintedEnvelope {
  status: boolean;
  code: number;
  data: Record<string, unknown>;
}

/**
 * Runs a documented script in a fresh directory of its own (or in `cwd`, for a script that names a file of the
 * repository); `answers` are the envelopes it printed, in order.
 */
export async function runDocumentedScript(script: string, env: Record<string, string>, options: { cwd?: string } = {}) {
  const workDir = mkdtempSync(join(tmpdir(), 'documented-script-'));
  try {
    const result = await runBash(script, env, options.cwd ?? workDir);
    const answers = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as PrintedEnvelope);
    return { ...result, answers };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
