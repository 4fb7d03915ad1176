import { execFile } from 'node:child_process';
import { access, constants, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { packagedChromium } from './packaged-chromium';

export interface FoundChromium {
  executablePath: string;
  /** Variables the browser needs on top of the test process's own. */
  env: Record<string, string>;
}

const LINUX_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/**
 * The Chromium the browser tests and benches drive, first match wins:
 * 1. CHROMIUM_PATH, when set (nothing else is tried);
 * 2. a system Chromium or Chrome: on Linux `chromium`, `chromium-browser`, `google-chrome` or `google-chrome-stable`
 *    on PATH; on macOS and Windows their usual install locations;
 * 3. Playwright's own browser cache (`npx playwright install chromium`);
 * 4. the Chromium that the `@sparticuz/chromium` dev dependency ships inside its package (Linux x64).
 * A candidate counts only if it answers `--version`: that catches a launcher script whose browser is gone and a
 * binary missing a shared library. When none does, this fails listing what was tried.
 */
export async function locateChromium(variables: NodeJS.ProcessEnv = process.env): Promise<FoundChromium> {
  const configured = variables.CHROMIUM_PATH;
  if (configured) {
    const problem = await unusable(configured, {});
    if (problem) throw new Error(`CHROMIUM_PATH=${configured} ${problem}`);
    return { executablePath: configured, env: {} };
  }
  const tried: string[] = [];
  for (const { name, offer } of sources(variables)) {
    let offered: FoundChromium[];
    try {
      offered = await offer();
    } catch (error) {
      tried.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    if (offered.length === 0) tried.push(`${name}: none`);
    for (const found of offered) {
      const problem = await unusable(found.executablePath, found.env);
      if (!problem) return found;
      tried.push(`${name}: ${found.executablePath} ${problem}`);
    }
  }
  throw new Error(
    `No Chromium for the browser tests. Tried:\n${tried.map((line) => `  - ${line}`).join('\n')}\n` +
      'Set CHROMIUM_PATH, install Chromium or Chrome, or run `npx playwright install chromium`.',
  );
}

let located: Promise<FoundChromium> | undefined;

/** locateChromium, once per process. */
export function findChromium(): Promise<FoundChromium> {
  return (located ??= locateChromium());
}

/** Browser settings that keep a headless Chromium off the network and the GPU. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A headless Chromium with everything that would reach the network or a GPU switched off; `extraArgs` add browser
 * settings a context cannot emulate (Playwright's reducedMotion does not reach the documents of SVG images, the
 * browser's own `--force-prefers-reduced-motion` does). In a vitest run whose tier started a Chromium server
 * (test/setup/chromium-server.ts), a call with neither argument connects to that browser instead of starting one:
 * `close()` then closes this caller's contexts and disconnects, and the browser serves the next file.
 */
export async function launchChromium(where?: FoundChromium, extraArgs: string[] = []): Promise<Browser> {
  const shared = where === undefined && extraArgs.length === 0 ? await sharedChromiumEndpoint() : undefined;
  if (shared) return chromium.connect(shared);
  const { executablePath, env } = where ?? (await findChromium());
  return chromium.launch({ executablePath, env: { ...process.env, ...env }, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** One Chromium for many test processes, reached at its `wsEndpoint` (playwright-core's browser server). */
export async function startChromiumServer(where?: FoundChromium): Promise<BrowserServer> {
  const { executablePath, env } = where ?? (await findChromium());
  return chromium.launchServer({ executablePath, env: { ...process.env, ...env }, headless: true, args: CHROMIUM_ARGS });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The wsEndpoint of the browser tier's shared Chromium. */
    chromiumEndpoint?: string;
  }
}

/** The shared browser's endpoint when this process is a vitest worker of a tier that started one. */
async function sharedChromiumEndpoint(): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject('chromiumEndpoint');
}

function systemPaths(variables: NodeJS.ProcessEnv): string[] {
  if (process.platform === 'darwin') {
    const apps = ['Chromium.app/Contents/MacOS/Chromium', 'Google Chrome.app/Contents/MacOS/Google Chrome'];
    return ['/Applications', join(homedir(), 'Applications')].flatMap((folder) => apps.map((app) => join(folder, app)));
  }
  if (process.platform === 'win32') {
    const roots = [variables.PROGRAMFILES, variables['PROGRAMFILES(X86)'], variables.LOCALAPPDATA].filter((root) => root !== undefined);
    return roots.flatMap((root) => ['Chromium', join('Google', 'Chrome')].map((app) => join(root, app, 'Application', 'chrome.exe')));
  }
  const folders = (variables.PATH ?? '').split(delimiter).filter(Boolean);
  return LINUX_NAMES.flatMap((name) => folders.map((folder) => join(folder, name)));
}

/** Where a browser may be, in the order of the search after CHROMIUM_PATH; each offers what it has. */
function sources(variables: NodeJS.ProcessEnv): { name: string; offer: () => Promise<FoundChromium[]> }[] {
  const onDisk = async (paths: string[]) => (await present(paths)).map((executablePath) => ({ executablePath, env: {} }));
  const systemWhere = process.platform === 'darwin' || process.platform === 'win32' ? 'usual install locations' : `${LINUX_NAMES.join(', ')} on PATH`;
  return [
    { name: `system Chromium or Chrome (${systemWhere})`, offer: () => onDisk(systemPaths(variables)) },
    { name: "Playwright's browser cache", offer: () => onDisk([chromium.executablePath()]) },
    { name: '@sparticuz/chromium', offer: async () => [await packagedChromium()] },
  ];
}

/** The executable ones among paths, each file once (/bin and /usr/bin are often one folder). */
async function present(paths: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const path of paths) {
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined || seen.has(real) || (await notExecutable(real))) continue;
    seen.add(real);
    result.push(path);
  }
  return result;
}

async function notExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => false,
    () => true,
  );
}

/** Why path cannot serve as the tests' browser, or undefined when it can. */
async function unusable(path: string, env: Record<string, string>): Promise<string | undefined> {
  if (await notExecutable(path)) return 'is missing or not executable';
  // chrome.exe --version opens a window instead of answering.
  if (process.platform === 'win32') return undefined;
  try {
    await promisify(execFile)(path, ['--version'], { env: { ...process.env, ...env }, timeout: 60_000 });
    return undefined;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    return `does not start: ${(stderr?.trim() || message).split('\n').at(-1)}`;
  }
}
