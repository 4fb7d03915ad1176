// Widget figures for `npm run bench`: gzip sizes against the budget, and the time from the loader starting to the
// FAB being interactive (showDelay 0) on the demo page, median of several runs in headless chromium.
import { resolve } from 'node:path';
import { startPlatform } from '../../lambdas/src/local/platform';
import { launchChromium } from '../test/browser/chromium';
import { BUDGETS, measureSizes } from '../src/size';

const RUNS = 7;

export async function benchWidget(): Promise<void> {
  const sizes = measureSizes(resolve(import.meta.dirname, '../dist'));
  for (const [file, bytes] of Object.entries(sizes.files)) console.log(`widget size  ${file.padEnd(10)} ${bytes} B gzip`);
  console.log(`widget size  loader      ${sizes.loader} / ${BUDGETS.loader} B budget`);
  console.log(`widget size  FAB + panel ${sizes.firstOpen} / ${BUDGETS.firstOpen} B budget`);

  const [platform, browser] = await Promise.all([startPlatform({ port: 0 }), launchChromium()]);
  try {
    const timings: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      // The demo page, with the loader tag switched to showDelay 0 (same origin, same files).
      await page.route(`${platform.url}/`, async (route) => {
        const html = await (await route.fetch()).text();
        await route.fulfill({ contentType: 'text/html', body: html.replace('data-agent-id=', 'data-show-delay="0" data-agent-id=') });
      });
      await page.goto(platform.url);
      // A string, not a function: tsx would wrap named functions in a helper the page does not have.
      const elapsed: number = await page.evaluate(`new Promise((done) => {
        const start = performance.getEntriesByType('resource').find((r) => r.name.endsWith('/embed/loader.js')).responseEnd;
        (function check() {
          if (document.querySelector('#service-chat')?.shadowRoot?.querySelector('.scw-fab')) done(performance.now() - start);
          else requestAnimationFrame(check);
        })();
      })`);
      timings.push(elapsed);
      await context.close();
    }
    timings.sort((a, b) => a - b);
    console.log(`widget time  loader start -> FAB interactive, median of ${RUNS}: ${timings[Math.floor(RUNS / 2)]!.toFixed(1)} ms (min ${timings[0]!.toFixed(1)}, max ${timings.at(-1)!.toFixed(1)})`);
  } finally {
    await browser.close();
    await platform.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWidget();
