import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The shared corpora sit beside the repository on every machine, CI included (`../shared/corpora`), and are never
 * part of it: test input only (each corpus's PROVENANCE.md says where it comes from and under which licence).
 */
const CORPORA = fileURLToPath(new URL('../../../../shared/corpora/', import.meta.url));

export function corpusPath(corpus: string, relative = ''): string {
  const path = `${CORPORA}${corpus}/${relative}`;
  if (!existsSync(path)) throw new Error(`${path} is missing: the shared corpora must sit beside the repository (../shared/corpora)`);
  return path;
}
