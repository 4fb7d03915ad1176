import { fork } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../cdk/lib/repo-paths';

/**
 * dynalite in a Node process of its own, in memory: the store as DynamoDB is, a service beside the API rather than
 * code sharing its event loop (in one process every store round trip is CPU serialised with the API's own work, so a
 * benchmark could not tell two waits from one). It is the local platform's embedded store (`startEmbeddedDynamo`,
 * with its fixes to dynalite), and exits with its parent (the IPC channel closing).
 */
export async function startDynaliteProcess(): Promise<{ endpoint: string; cpuUsage: () => Promise<NodeJS.CpuUsage>; stop: () => Promise<void> }> {
  const embeddedDynamo = pathToFileURL(join(REPO_ROOT, 'lambdas/src/entries/local/embedded-dynamo.ts')).href;
  const script = `
    const { startEmbeddedDynamo } = await import(${JSON.stringify(embeddedDynamo)});
    const { endpoint } = await startEmbeddedDynamo();
    process.send(endpoint);
    process.on('message', () => process.send(process.cpuUsage()));
    process.on('disconnect', () => process.exit(0));`;
  const child = fork('-e', [script], { execArgv: ['--import', 'tsx', '--input-type=module'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] } as Parameters<
    typeof fork
  >[2]);
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve(String(message)));
    child.once('exit', (code) => reject(new Error(`dynalite exited with ${code} before listening`)));
  });
  return {
    endpoint,
    /** The CPU time the store's process has used so far. */
    cpuUsage: () =>
      new Promise((resolve) => {
        child.once('message', (usage) => resolve(usage as NodeJS.CpuUsage));
        child.send('cpu');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}
