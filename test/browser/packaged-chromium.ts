import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import * as tar from 'tar';

const PACKAGE = '@sparticuz/chromium';

export interface PackagedChromium {
  executablePath: string;
  /** What the binary needs beside it: the shared libraries and fonts the package ships (none assumed on the host). */
  env: Record<string, string>;
}

/**
 * The headless Chromium that the `@sparticuz/chromium` dev dependency ships brotli-compressed inside its package
 * (Linux x64 only), unpacked once per package version into node_modules/.cache. The package's own executablePath()
 * unpacks into a shared /tmp path that another process may find half written, so the files are unpacked here into a
 * private folder that appears under its final name only when complete.
 */
export async function packagedChromium(): Promise<PackagedChromium> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`${PACKAGE} ships Chromium for Linux x64 only; this is ${process.platform} ${process.arch}`);
  }
  const bin = join(dirname(createRequire(import.meta.url).resolve(PACKAGE)), '..', 'bin');
  const { version } = JSON.parse(await readFile(join(bin, '..', 'package.json'), 'utf8')) as { version: string };
  const cache = join(bin, '..', '..', '..', '.cache');
  const folder = join(cache, `sparticuz-chromium-${version}`);
  if (!existsSync(folder)) await unpack(bin, folder, cache);
  return {
    executablePath: join(folder, 'chromium'),
    env: {
      LD_LIBRARY_PATH: [join(folder, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: join(folder, 'fonts.conf'),
    },
  };
}

async function unpack(bin: string, folder: string, cache: string): Promise<void> {
  await mkdir(cache, { recursive: true });
  const staging = await mkdtemp(join(cache, 'unpacking-'));
  try {
    await pipeline(createReadStream(join(bin, 'chromium.br')), createBrotliDecompress(), createWriteStream(join(staging, 'chromium'), { mode: 0o755 }));
    await tar.x({ file: join(bin, 'fonts.tar.br'), cwd: staging });
    await tar.x({ file: join(bin, 'al2023.tar.br'), cwd: staging });
    // The package's fonts.conf names /tmp/fonts; this one names the fonts unpacked here, and only those.
    await writeFile(join(staging, 'fonts.conf'), fontsConf(join(folder, 'fonts'), join(folder, 'fonts-cache')));
    await rename(staging, folder);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another process finished the same unpacking first.
    if (!existsSync(folder)) throw error;
  }
}

function fontsConf(fonts: string, cache: string): string {
  const xml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${xml(fonts)}</dir>
  <cachedir>${xml(cache)}</cachedir>
</fontconfig>
`;
}
