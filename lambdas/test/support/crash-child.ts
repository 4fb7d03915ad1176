/**
 * The local platform in a child process, on a data dir, for crash tests: with CRASH_AT set it kills itself with
 * SIGKILL the moment the store is asked for that operation (`<Command>:<table suffix>:<text in the update, or in a put item's pk>`), as a
 * machine losing power would; with CRASH_AFTER (same form) the moment that operation has been stored, while HOLD
 * (same form) keeps an operation from ever reaching the store (a write the crash overtakes). CLOCK_SHIFT_MS moves its
 * clock (a retry after the idempotency lock lapsed, a sweep a while later); SWEEP_EVERY_MS runs the run and mail sweepers
 * that often, as the EventBridge schedule does in AWS; its READY line names its API, demo agent and SMTP port. The three are armed once the platform is up, so its own start (the
 * demo seed's writes) never trips them: the crash is always in what the test asks of it.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sweepMails } from '../../src/domains/mail/mail-sweeper';
import { sweepRuns } from '../../src/domains/runs/runtime/run-sweeper';
import { startPlatform } from '../../src/entries/local/platform';

type Command = {
  constructor: { name: string };
  input: { TableName?: string; RequestItems?: Record<string, unknown>; UpdateExpression?: string; Item?: { pk?: unknown } };
};
const operation = (setting: string | undefined) => setting?.split(':');
const [crashAt, crashAfter, hold] = [operation(process.env.CRASH_AT), operation(process.env.CRASH_AFTER), operation(process.env.HOLD)];
/** The table of a command, or of a batch's first table. */
const tableOf = (command: Command) => command.input.TableName ?? Object.keys(command.input.RequestItems ?? {})[0];
const matches = (command: Command, at: string[] | undefined) =>
  at !== undefined &&
  command.constructor.name === at[0] &&
  tableOf(command)?.endsWith(at[1]!) &&
  (command.input.UpdateExpression ?? String(command.input.Item?.pk ?? '')).includes(at[2] ?? '');
const shift = Number(process.env.CLOCK_SHIFT_MS ?? 0);
let armed = false;
const send = DynamoDBDocumentClient.prototype.send;
DynamoDBDocumentClient.prototype.send = function (this: DynamoDBDocumentClient, ...args: unknown[]) {
  const command = args[0] as Command;
  if (!armed) return (send as (...a: unknown[]) => Promise<unknown>).apply(this, args);
  if (matches(command, crashAt)) process.kill(process.pid, 'SIGKILL');
  if (matches(command, hold)) return new Promise(() => undefined);
  const result = (send as (...a: unknown[]) => Promise<unknown>).apply(this, args);
  return matches(command, crashAfter) ? result.then(() => process.kill(process.pid, 'SIGKILL')) : result;
} as typeof send;

// QUEUE_VISIBILITY_MS (`runs=5000,knowledge=3000`): a message the crash leaves in flight on that queue comes back after
// this, not the platform's default (a minute for runs, 30 s for the others): the mechanism is the same, the wait shorter.
const visibilityTimeoutMs = Object.fromEntries(
  (process.env.QUEUE_VISIBILITY_MS ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const [queue, ms] = pair.split('=');
      return [queue!, Number(ms)];
    }),
);
const platform = await startPlatform({
  dataDir: process.env.DATA_DIR!,
  now: () => new Date(Date.now() + shift),
  env: { MODEL: 'offline' },
  queue: { visibilityTimeoutMs },
  // The queue messages worked to their end are told on stdout (`WORKED <queue> <messages>`): a test waits for a redelivery by it.
  observer: {
    sent: () => undefined,
    invoked: (invocation) =>
      void (
        invocation.trigger === 'queue' && process.stdout.write(`WORKED ${invocation.queue} ${invocation.messageBytes.length - invocation.failedMessages}\n`)
      ),
  },
  // Inbound mail's SPF/DKIM/DMARC checks offline: no record exists (every verdict `none`), no wait on DNS.
  mailResolver: async () => {
    throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
  },
});
if (process.env.SWEEP_EVERY_MS)
  setInterval(() => void Promise.all([sweepRuns(platform.deps), sweepMails(platform.deps)]), Number(process.env.SWEEP_EVERY_MS)).unref();
armed = true;
process.stdout.write(`READY ${platform.apiBaseUrl} ${platform.demo.agentId} ${platform.smtpPort}\n`);
