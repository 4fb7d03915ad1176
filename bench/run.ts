import { benchApiCommand } from './api-command';
import { benchRunner } from './runner';

/** `npm run bench`: every benchmark, each printing measured figures and ratios against a baseline run in the same process. */
const sections: [string, () => Promise<string[]>][] = [
  ['REST API: agents/command vs a bare conditional PutItem', () => benchApiCommand()],
  ['Agent runs', () => benchRunner()],
];

for (const [title, run] of sections) {
  console.log(`\n== ${title}`);
  for (const line of await run()) console.log(line);
}
