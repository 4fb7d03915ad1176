import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
};

/** URL prefixes served from folders of the repository: the widget build and the demo host pages. */
/** The widget files are loaded by other sites' pages (widget.js as an ES module, which needs CORS); the demo pages are ours. */
const MOUNTS: { prefix: string; dir: string; cache: string; crossOrigin: boolean }[] = [
  { prefix: '/embed/', dir: join(REPO_ROOT, 'embed/dist'), cache: 'public, max-age=300', crossOrigin: true },
  { prefix: '/demo/', dir: join(REPO_ROOT, 'lambdas/src/entries/local/demo'), cache: 'no-cache', crossOrigin: false },
];

export interface StaticFile {
  body: Buffer;
  contentType: string;
  cacheControl: string;
  crossOrigin: boolean;
}

/** The file behind a GET path, or undefined; never leaves the mounted folder. */
export async function readStaticFile(pathname: string): Promise<StaticFile | undefined> {
  const path = pathname === '/' ? '/demo/index.html' : pathname;
  const mount = MOUNTS.find((candidate) => path.startsWith(candidate.prefix));
  if (!mount) return undefined;
  const file = normalize(join(mount.dir, decodeURIComponent(path.slice(mount.prefix.length))));
  if (!file.startsWith(mount.dir + sep)) return undefined;
  try {
    return { body: await readFile(file), contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', cacheControl: mount.cache, crossOrigin: mount.crossOrigin };
  } catch {
    return undefined;
  }
}
