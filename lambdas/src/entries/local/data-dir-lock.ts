import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { StartupError } from './startup-error';

const LOCK_FILE = 'platform.lock';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One platform per data folder: the embedded store's files must not be opened twice. Creates the lock file
 * exclusively with this process's id; a lock left by a process that no longer runs (a crash) is taken over.
 * Resolves to the release function.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const file = await open(path, 'wx');
      await file.writeFile(String(process.pid));
      await file.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
        throw new StartupError(`DATA_DIR ${dataDir} is in use by another process (pid ${owner}): stop it, or start with DATA_DIR=<another folder>`);
      }
      await rm(path, { force: true });
    }
  }
  throw new StartupError(`DATA_DIR ${dataDir} is being locked by another process at the same moment: try again`);
}
