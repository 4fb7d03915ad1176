import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { benchApiCommand } from './api-command';
import { benchLambdas } from './lambdas';
import { benchRunner } from './runner';
import { benchRunStream } from './run-stream';
import { benchInbox } from './inbox';
import { benchWebhooks } from './webhooks';
import { benchCost } from './cost';
import { handoffBill } from './cost-handoff';
import { benchMcp } from './mcp';
import { soakPlatform } from './soak';
import { soakLambdas } from './soak-lambdas';
import { benchSkillCalls } from './skill-calls';
import { benchWidget } from '../embed/bench/widget';
import { benchKnowledge } from './knowledge';
import { benchKnowledgeHttp } from './knowledge-http';
import { benchKnowledgeAws } from './knowledge-aws';
import { benchAnswers } from './answers';
import { benchTraces } from './traces';
import { benchEvals } from './evals';
import { benchEmail } from './email';
import { failureSummary, runSections, type BenchSection } from './sections';

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

/**
 * `npm run bench`: every benchmark, each printing measured figures and ratios against a baseline run in the same process.
 * `npm run bench -- lambdas webhooks` runs only the sections of those keys, and replaces only their figures in the file.
 */
const sections: BenchSection[] = [
  ['lambdas', 'Lambda bundles: size, and cold start (import and handler construction) in a fresh Node process', () => benchLambdas()],
  ['command', 'REST API: agents/command vs a bare conditional PutItem', () => benchApiCommand()],
  ['runs', 'Agent runs', () => benchRunner()],
  ['stream', "Watching a run: agents/command_stream's first event, and 500 streams at once", () => benchRunStream()],
  ['inbox', 'People in the conversation: a reply to the visitor and a message to the inbox, with 500 visitors and 20 teammates connected', () => benchInbox()],
  ['webhooks', 'Signed webhook deliveries to a loopback receiver', () => benchWebhooks()],
  [
    'cost',
    'AWS bill of 1,000 commands, each with one tool call and one webhook delivery, of knowledge (1,000 questions, 10,000 pages kept indexed a month), and of 1,000 handed-off conversations of 10 messages (measured, list prices)',
    async () => [...(await benchCost()), '', ...(await handoffBill())],
  ],
  ['mcp', 'MCP access point: list_agents over MCP vs REST agents/list', () => benchMcp()],
  ['skills', 'Skill tool calls: startSkill vs a bare official-SDK stateless server sharing one validator', () => benchSkillCalls()],
  // benchWidget prints the bundle sizes against their budgets and the loader-to-interactive FAB time itself.
  ['widget', 'Chat widget: sizes and time to an interactive FAB', () => capturingConsole(benchWidget)],
  [
    'knowledge',
    "Knowledge: SciFact quality through knowledge/document_upload and knowledge/search beside MiniSearch, search latency at 10k and 100k passages beside LanceDB's own query, the widget's time to first token with knowledge on and off",
    () => benchKnowledge(),
  ],
  ['search', "Knowledge search over HTTP: knowledge/search with limit 100 vs LanceDB's own query of the same table", () => benchKnowledgeHttp()],
  [
    'answers',
    'Answers: the offline model asked 12 paraphrases and 6 off-topic questions about a real help center (../shared/corpora/plausible-docs, skipped when absent) through agents/command',
    () => benchAnswers(),
  ],
  [
    'knowledge-aws',
    "Knowledge in AWS: the LanceDB layer's cold start, 10,000 pages on S3 (emulated, requests counted), the bill at rest and per 1,000 questions",
    () => benchKnowledgeAws(),
  ],
  ['traces', 'Traces: the CPU a run costs with its OpenTelemetry spans exported vs without', () => benchTraces()],
  ['evals', 'Evals: a suite of 100 scenarios against the offline model, its wall time, CPU and AWS bill', () => benchEvals()],
  [
    'email',
    "Inbound e-mail: real SMTP to the agent's answer stored at 1, 10 and 100 mails in flight beside the widget, 1,000 mails in a minute, the AWS bill per 1,000 mails",
    () => benchEmail(),
  ],
  // SOAK_SECONDS shortens both soaks (3 minutes of traffic and a minute at idle by default).
  ['soak', 'Memory soak: the local platform under mixed traffic, then idle', () => soakPlatform()],
  ['soak-lambdas', 'Memory soak: each Lambda handler invoked in a loop, then idle', () => soakLambdas()],
];

const chosen = process.argv.slice(2);
const unknown = chosen.filter((key) => !sections.some(([known]) => known === key));
if (unknown.length > 0) throw new Error(`unknown bench section(s) ${unknown.join(', ')}; known: ${sections.map(([key]) => key).join(', ')}`);

const started = new Date();
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(', ');
const machine = () => `Node ${process.versions.node}, ${availableParallelism()} cores, load average ${load()}`;

/** The figures of the last run of each section, by title, from the file (kept for the sections not run now). */
function previousFigures(): Map<string, string[]> {
  const figures = new Map<string, string[]>();
  if (!existsSync(LATEST)) return figures;
  for (const part of readFileSync(LATEST, 'utf8').split(/^## /m).slice(1)) {
    const [title, ...body] = part.split('\n');
    figures.set(title!, body.join('\n').trimEnd().split('\n'));
  }
  return figures;
}

const figures = previousFigures();
const outcomes = await runSections(
  sections.filter(([key]) => chosen.length === 0 || chosen.includes(key)),
  ({ title, lines, failed }) => {
    console.log(`\n== ${title}${failed ? ' (FAILED)' : ''}`);
    for (const line of lines) console.log(line);
    figures.set(title, ['', `Measured ${started.toISOString().slice(0, 10)}: ${machine()} at the start.`, '', '```text', ...lines, '```']);
  },
);
const report = [
  '# Benchmarks: latest figures',
  '',
  'Written by `npm run bench` (each section says when and on what it was measured). What each benchmark measures, its ' +
    'baseline and its target: [benchmarks.md](benchmarks.md).',
  ...sections.flatMap(([, title]) => (figures.has(title) ? ['', `## ${title}`, ...figures.get(title)!] : [])),
  '',
];
writeFileSync(LATEST, report.join('\n'));
console.log(`\nFigures written to ${LATEST.pathname}`);
const summary = failureSummary(outcomes);
if (summary.line) console.log(summary.line);
process.exitCode = summary.exitCode;
// A section that threw may have left its platform or servers open: they must not keep the run from ending.
if (summary.exitCode !== 0) setTimeout(() => process.exit(), 2_000).unref();
