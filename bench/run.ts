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
  // benchWidget prints the bundle sizes against their budgets and the loader-to-interactive FAB time.
  ['Chat widget: sizes and time to an interactive FAB', async () => (await benchWidget(), [])],
  // SOAK_SECONDS shortens both soaks (3 minutes of traffic and a minute at idle by default).
  ['Memory soak: the local platform under mixed traffic, then idle', () => soakPlatform()],
  ['Memory soak: each Lambda handler invoked in a loop, then idle', () => soakLambdas()],
];

for (const [title, run] of sections) {
  console.log(`\n== ${title}`);
  for (const line of await run()) console.log(line);
}
