import type { TestProject } from 'vitest/node';
import { startChromiumServer } from '../browser/chromium';

/**
 * The browser tier's global setup: one Chromium for every browser test file of the run, which launchChromium()
 * connects to (a Chromium per file cost a start each, and as many browsers as files running). It fails the tier,
 * never skips it, when no Chromium starts (test/browser/chromium.ts lists where it looks).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startChromiumServer();
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
