import { randomBase62 } from '@service/shared';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPlatform, type RunningPlatform } from '../lambdas/src/entries/local/platform';
import { DEMO_AGENT_IDS } from '../lambdas/src/entries/local/seed';
import { AWS_PRICES } from './aws-prices';
import { formatBill, type MeasuredUsage } from './cost-bill';
import { meterDynamo } from './cost-dynamo-meter';
import { InvocationLog, lambdaUsage, proxySkills, sqsRequests, throughHttpApi } from './cost';
import { startDynaliteProcess } from './dynalite-process';

/** The suite: widget questions and commands in turn, each with expectations of every kind the offline model can meet or miss. */
function scenario(agentId: string, index: number): Record<string, unknown> {
  if (index % 2 === 0) {
    return {
      agent_id: agentId,
      name: `Question ${index}`,
      turns: [
        {
          user: `What are your opening hours on day ${index}?`,
          expect: [{ no_action: true }, { answer_excludes: 'guarantee' }, { judge: 'It answers the question or says it does not know' }],
        },
      ],
    };
  }
  return {
    agent_id: agentId,
    name: `Command ${index}`,
    door: 'command',
    turns: [{ user: `Add a contact named Grace Hopper ${index}`, expect: [{ tool_called: 'contacts.create' }, { tool_not_called: 'email.send' }] }],
  };
}

type EvalRunView = { eval_run: { eval_run_id: string; status: string; passed: number; failed: number; scenarios: number } };

async function rest<T>(platform: RunningPlatform, key: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${platform.apiBaseUrl}/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': key, 'idempotency-key': randomBase62(20) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { status: boolean; data: T; msg: string };
  if (!envelope.status) throw new Error(`evals bench: ${path} answered ${response.status}: ${envelope.msg}`);
  return envelope.data;
}

/** Plays the agent's suite once (evals/run, then evals/run_status until it ends): the run as it ended. */
async function playSuite(platform: RunningPlatform, key: string, agentId: string): Promise<EvalRunView['eval_run']> {
  const started = await rest<EvalRunView>(platform, key, 'evals/run/', { agent_id: agentId, draft: false });
  for (;;) {
    const { eval_run: run } = await rest<EvalRunView>(platform, key, `evals/run_status/?eval_run_id=${started.eval_run.eval_run_id}`);
    if (run.status === 'completed' || run.status === 'failed') return run;
    await sleep(50);
  }
}

/**
 * An eval run of a suite of `count` scenarios (half widget questions, half commands whose contact is recorded in the
 * sandbox) against the offline model: its wall time from evals/run to the last result, the platform's CPU meanwhile,
 * and its AWS bill measured as the commands' bill is (cost.ts), per 1,000 scenarios played.
 */
export async function benchEvals(count = 100, warmUp = 10): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const log = new InvocationLog();
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({
    port: 0,
    dynamoEndpoint: dynalite.endpoint,
    observer: log,
    env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  const closeProxies = await proxySkills(platform, log);
  try {
    const { config } = platform.deps;
    const meter = meterDynamo(platform.deps.store, { tablePrefix: config.tablePrefix, region: config.region, endpoint: dynalite.endpoint });
    // The warm-up suite is the other demo agent's, so the measured suite is played once.
    for (let index = 0; index < warmUp; index += 1) await rest(platform, key, 'evals/scenario_create/', scenario(DEMO_AGENT_IDS.sales, index));
    for (let index = 0; index < count; index += 1) await rest(platform, key, 'evals/scenario_create/', scenario(DEMO_AGENT_IDS.support, index));
    await playSuite(platform, key, DEMO_AGENT_IDS.sales);
    log.reset();
    meter.reset();
    const cpuBefore = process.cpuUsage();
    const startedAt = performance.now();
    const run = await playSuite(platform, key, DEMO_AGENT_IDS.support);
    const wallMs = performance.now() - startedAt;
    const cpu = process.cpuUsage(cpuBefore);
    if (run.status !== 'completed' || run.scenarios !== count) throw new Error(`evals bench: the eval run ended ${run.status} with ${run.scenarios} scenarios`);
    const usage: MeasuredUsage = {
      commands: count,
      lambda: lambdaUsage(log, meter.imageReads()),
      apiGatewayRequests: log.invocations.filter(throughHttpApi).length,
      sqs: sqsRequests(log),
      dynamo: meter.usage(),
    };
    return [
      `an eval run of ${count} scenarios (${count / 2} widget questions, ${count / 2} commands, each contact recorded in the sandbox), offline model: ${(wallMs / 1000).toFixed(1)} s wall (${(wallMs / count).toFixed(0)} ms a scenario), ${((cpu.user + cpu.system) / 1000 / count).toFixed(1)} ms of the platform's CPU a scenario; ${run.passed} passed, ${run.failed} failed (judge criteria not graded by the offline model)`,
      `its AWS bill, measured over that run (the evals/run_status polls included), scaled to 1,000 scenarios played; ${AWS_PRICES.region} list prices of ${AWS_PRICES.takenOn}:`,
      ...formatBill(usage, { unit: 'scenarios played' }),
      "assumed: one EvalRunner invocation plays the whole suite (wall time as this machine ran it, warm); model tokens are not billed with the offline model; on Bedrock each scenario costs its tokens at the model's price, as a run does",
    ];
  } finally {
    await closeProxies();
    await platform.stop();
    await dynalite.stop();
  }
}
