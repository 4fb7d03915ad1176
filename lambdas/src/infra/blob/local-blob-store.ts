import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { randomUUID } from 'node:crypto';
import { checkedKey, type BlobStore } from './blob-store';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Blobs as files under `root` (the local platform's data dir): written to a temporary name, then renamed, so a crash leaves no half file. */
export function localBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => join(root, checkedKey(key));
  return {
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomUUID()}.tmp`;
      await writeFile(temporary, body);
      await rename(temporary, path);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async deletePrefix(prefix) {
      await rm(pathOf(prefix.replace(/\/$/, '')), { recursive: true, force: true });
    },
    async list(prefix) {
      try {
        const entries = await readdir(pathOf(prefix.replace(/\/$/, '')), { recursive: true, withFileTypes: true });
        return entries.filter((entry) => entry.isFile()).map((entry) => relative(root, join(entry.parentPath, entry.name)));
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
    },
  };
}
