import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT } from '../../cdk/lib/repo-paths';
import { synthesize } from '../../lambdas/src/entries/bundled/synth';

export const MAIL_DOMAIN = 'mail.example.test';
export const AGENT_MAIL_DOMAIN = 'agents.example.test';
/** The deploy the bundled tier tests: the defaults of cdk.json (stack ServicePlatform), plus the mail settings SES needs. */
export const SYNTH_CONTEXT = { mailFrom: `Service <no-reply@${MAIL_DOMAIN}>`, agentMailDomain: AGENT_MAIL_DOMAIN };
export const SYNTH_STACK = 'ServicePlatform';

/** Inside the repository, on the file system of node_modules: the LanceDB layer is hard-linked from it, not copied. */
const CDK_OUT = join(REPO_ROOT, 'node_modules/.cache/test-cdk.out');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cloud assembly of the bundled tier's one `cdk synth` (SYNTH_CONTEXT). */
    cdkOut: string;
  }
}

/** Written once the synth is over: `{}`, or the error that failed it. */
const statusFile = (cdkOut: string) => `${cdkOut}.status.json`;

/**
 * The bundled tier's global setup: `cdk synth` once, as a deploy runs it, into one cloud assembly that the stack's
 * tests read and the bundled platform runs. It runs beside the other tiers' files (vitest holds every file until all
 * global setups return, and the synth takes minutes), and the tier's files wait for it (`synthesized`). BUNDLED_CDK_OUT
 * names an earlier synth of this tree with SYNTH_CONTEXT (as `npm start -- --bundled` takes one) to rerun quickly.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const reused = process.env.BUNDLED_CDK_OUT;
  project.provide('cdkOut', reused ?? CDK_OUT);
  if (reused) return async () => undefined;
  rmSync(CDK_OUT, { recursive: true, force: true });
  rmSync(statusFile(CDK_OUT), { force: true });
  // Any attempt to bundle in Docker would run this non-existent binary and fail the synth (the child takes the
  // environment as it is when synthesize() spawns it).
  const docker = process.env.CDK_DOCKER;
  process.env.CDK_DOCKER = '/nonexistent/docker-must-not-be-used';
  const running = synthesize(CDK_OUT, SYNTH_CONTEXT).then(
    () => writeFileSync(statusFile(CDK_OUT), '{}'),
    (error: unknown) => writeFileSync(statusFile(CDK_OUT), JSON.stringify({ error: String(error) })),
  );
  if (docker === undefined) delete process.env.CDK_DOCKER;
  else process.env.CDK_DOCKER = docker;
  return () => running;
}

/** The tier's cloud assembly once the synth is over; throws what failed it. */
export async function synthesized(cdkOut: string): Promise<string> {
  if (process.env.BUNDLED_CDK_OUT) return cdkOut;
  for (;;) {
    if (existsSync(statusFile(cdkOut))) {
      const { error } = JSON.parse(readFileSync(statusFile(cdkOut), 'utf8')) as { error?: string };
      if (error) throw new Error(error);
      return cdkOut;
    }
    await sleep(1_000);
  }
}
