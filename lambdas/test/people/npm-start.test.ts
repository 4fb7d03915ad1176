import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = resolve(import.meta.dirname, '../../src/entries/local/main.ts');

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'start-owner-'));
  let child: ChildProcess | undefined;
  let output = '';
  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Resolves once the output matches. */
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((done, fail) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match) done(match);
      };
      child!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        check();
      });
      child!.once('exit', () => fail(new Error(`npm start exited:\n${output}`)));
      check();
    });

  it('prints the demo owner and where to sign in; the sign-in mail lands in /dev/mail.json and is printed', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, PORT: '0', DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    const [, port] = await printed(/Demo owner: owner@demo\.example — sign in at http:\/\/localhost:(\d+)\/dashboard\//);
    const base = `http://localhost:${port}`;
    const started = await fetch(`${base}/en/api/v1/auth/email/start/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@demo.example' }),
    });
    expect(started.status).toBe(200);
    const { mail } = (await (await fetch(`${base}/dev/mail.json`)).json()) as { mail: { to: string; subject: string }[] };
    expect(mail[0]).toMatchObject({ to: 'owner@demo.example', subject: expect.stringMatching(/^Your sign-in code: \d{6}$/) });
    await printed(/Mail to owner@demo\.example: "Your sign-in code: \d{6}"/);
  });
});
