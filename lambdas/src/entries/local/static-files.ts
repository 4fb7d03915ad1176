import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DASHBOARD_CSP, DASHBOARD_PREFIX, DASHBOARD_PREVIEW_CSP, DASHBOARD_PREVIEW_PAGE } from '@service/shared';

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
const MOUNTS: { prefix: string; dir: string; cache: string; crossOrigin: boolean; headers?: (file: string) => Record<string, string> }[] = [
  { prefix: '/embed/', dir: join(REPO_ROOT, 'embed/dist'), cache: 'public, max-age=300', crossOrigin: true },
  { prefix: '/demo/', dir: join(REPO_ROOT, 'lambdas/src/entries/local/demo'), cache: 'no-cache', crossOrigin: false },
  { prefix: DASHBOARD_PREFIX, dir: join(REPO_ROOT, 'dashboard/dist'), cache: 'no-cache', crossOrigin: false, headers: dashboardHeaders },
];

/** The dashboard's pages: the CSP without unsafe-inline, never framed (its widget preview only by the dashboard). */
function dashboardHeaders(file: string): Record<string, string> {
  const preview = file.endsWith(sep + DASHBOARD_PREVIEW_PAGE);
  return {
    'content-security-policy': preview ? DASHBOARD_PREVIEW_CSP : DASHBOARD_CSP,
    'x-frame-options': preview ? 'SAMEORIGIN' : 'DENY',
    'referrer-policy': 'same-origin',
  };
}

export interface StaticFile {
  body: Buffer;
  contentType: string;
  cacheControl: string;
  crossOrigin: boolean;
  headers: Record<string, string>;
}

/** The file behind a GET path, or undefined; never leaves the mounted folder. */
export async function readStaticFile(pathname: string): Promise<StaticFile | undefined> {
  const path = pathname === '/' ? '/demo/index.html' : pathname;
  const mount = MOUNTS.find((candidate) => path.startsWith(candidate.prefix));
  if (!mount) return undefined;
  const rest = decodeURIComponent(path.slice(mount.prefix.length));
  const file = normalize(join(mount.dir, rest === '' ? 'index.html' : rest));
  if (!file.startsWith(mount.dir + sep)) return undefined;
  try {
    return {
      body: await readFile(file),
      contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      cacheControl: mount.cache,
      crossOrigin: mount.crossOrigin,
      headers: mount.headers?.(file) ?? {},
    };
  } catch {
    return undefined;
  }
}
