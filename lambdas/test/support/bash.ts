import { spawn } from 'node:child_process';
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
export function runBash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-eu', '-o', 'pipefail', '-c', script], { cwd,
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
