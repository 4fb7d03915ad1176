import dynalite from 'dynalite';
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock';
import { letDynaliteCloseItsIterators } from './dynalite-iterators';

/**
 * dynalite, a real DynamoDB API on LevelDB: persisted under `dataDir`, or in memory for tests. A data folder is
 * locked for this process while the store is open (a second platform on it fails at once, in one clear line).
 */
export async function startEmbeddedDynamo(dataDir?: string): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const path = dataDir ? join(dataDir, 'dynamodb') : undefined;
  if (path) await mkdir(path, { recursive: true });
  const unlock = dataDir ? await lockDataDir(dataDir) : async () => undefined;
  letDynaliteCloseItsIterators();
  const server: Server = dynalite({ ...(path ? { path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    // dynalite closes its LevelDB when its server closes, so a later start on the same folder opens cleanly.
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlock();
    },
  };
}
