import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so synth works from the root and from the cdk workspace alike. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The absolute path of a repository-relative file, or undefined while it does not exist (a planned handler not written yet). */
export function existingRepoFile(relativePath: string): string | undefined {
  const absolute = resolve(REPO_ROOT, relativePath);
  return existsSync(absolute) ? absolute : undefined;
}
