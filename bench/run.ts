import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { benchApiCommand } from './api-command';
import { benchLambdas } from './lambdas';
import { benchRunner } from './runner';
import { benchRunStream } from './run-stream';
import { benchWebhooks } from './webhooks';
import { benchCost } from './cost';
import { benchMcp } from './mcp';
import { soakPlatform } from './soak';
import { soakLambdas } from './soak-lambdas';
import { benchSkillCalls } from './skill-calls';
import { benchWidget } from '../embed/bench/widget';

/** Where `npm run bench` writes what it printed: the one place the measured figures live (docs/benchmarks.md links it). */
const LATEST = new URL('../docs/benchmarks-latest.md', import.meta.url);

/** The lines `run` prints with console.log, returned instead (for a bench that prints its own figures). */
async function capturingConsole(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  try {
    await run();
  } finally {
    console.log = log;
  }
  return lines;
}

/** `npm run bench`: every benchmark, each printing measured figures and ratios against a baseline run in the same process. */
const sections: [string, () => Promise<string[]>][] = [
  ['Lambda bundles: size, and cold start (import and handler construction) in a fresh Node process', () => benchLambdas()],
  ['REST API: agents/command vs a bare conditional PutItem', () => benchApiCommand()],
  ['Agent runs', () => benchRunner()],
  ["Watching a run: agents/command_stream's first event, and 500 streams at once", () => benchRunStream()],
  ['Signed webhook deliveries to a loopback receiver', () => benchWebhooks()],
  ['AWS bill of 1,000 commands, each with one tool call and one webhook delivery (measured, list prices)', () => benchCost()],
  ['MCP access point: list_agents over MCP vs REST agents/list', () => benchMcp()],
  ['Skill tool calls: startSkill vs a bare official-SDK stateless server', () => benchSkillCalls()],
  // benchWidget prints the bundle sizes against their budgets and the loader-to-interactive FAB time itself.
  ['Chat widget: sizes and time to an interactive FAB', () => capturingConsole(benchWidget)],
  // SOAK_SECONDS shortens both soaks (3 minutes of traffic and a minute at idle by default).
  ['Memory soak: the local platform under mixed traffic, then idle', () => soakPlatform()],
  ['Memory soak: each Lambda handler invoked in a loop, then idle', () => soakLambdas()],
];

const started = new Date();
const load = () => loadavg().map((value) => value.toFixed(1)).join(', ');
const report = [
  '# Benchmarks: latest figures',
  '',
  `Written by \`npm run bench\` on ${started.toISOString().slice(0, 10)}: Node ${process.versions.node}, ` +
    `${availableParallelism()} cores, load average ${load()} at the start. What each benchmark measures, its baseline ` +
    'and its target: [benchmarks.md](benchmarks.md).',
];
for (const [title, run] of sections) {
  console.log(`\n== ${title}`);
  const lines = await run();
  for (const line of lines) console.log(line);
  report.push('', `## ${title}`, '', '```text', ...lines, '```');
}
report.push('', `Load average at the end: ${load()}.`, '');
writeFileSync(LATEST, report.join('\n'));
console.log(`\nFigures written to ${LATEST.pathname}`);
