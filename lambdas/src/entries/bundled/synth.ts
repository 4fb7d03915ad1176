import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');

/**
 * Runs `cdk synth` (the cdk workspace's `synth` script, as a deploy would) into `outDir`, with `-c key=value` for each
 * context entry. Needs the workspaces built (`npm run build`), since the bundles take the built packages.
 */
export function synthesize(outDir: string, context: Record<string, string> = {}): Promise<void> {
  const args = ['run', 'synth', '-w', 'cdk', '--', '--output', outDir, ...Object.entries(context).flatMap(([key, value]) => ['-c', `${key}=${value}`])];
  return new Promise((done, fail) => {
    const child = spawn('npm', args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`cdk synth failed (exit ${code}):\n${stderr.slice(-4000)}`))));
  });
}
