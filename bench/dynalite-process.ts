import { fork } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * dynalite in a Node process of its own, in memory: the store as DynamoDB is, a service beside the API rather than
 * code sharing its event loop (in one process every store round trip is CPU serialised with the API's own work, so a
 * benchmark could not tell two waits from one). It exits with its parent (the IPC channel closing).
 */
export async function startDynaliteProcess(): Promise<{ endpoint: string; cpuUsage: () => Promise<NodeJS.CpuUsage>; stop: () => Promise<void> }> {
  const dynalitePath = createRequire(import.meta.url).resolve('dynalite');
  const script = `
    const server = require(${JSON.stringify(dynalitePath)})({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    server.listen(0, '127.0.0.1', () => process.send(server.address().port));
    process.on('message', () => process.send(process.cpuUsage()));
    process.on('disconnect', () => process.exit(0));`;
  const child = fork('-e', [script], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] } as Parameters<typeof fork>[2]);
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(Number(message)));
    child.once('exit', (code) => reject(new Error(`dynalite exited with ${code} before listening`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
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
