/**
 * The local platform in a child process, on a data dir, for crash tests: with CRASH_AT set it kills itself with
 * SIGKILL the moment the store is asked for that operation (`<Command>:<table suffix>:<text in the update>`), as a
 * machine losing power would; CLOCK_SHIFT_MS moves its clock (a retry after the idempotency lock lapsed).
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startPlatform } from '../../src/entries/local/platform';

const crashAt = process.env.CRASH_AT?.split(':');
const shift = Number(process.env.CLOCK_SHIFT_MS ?? 0);
const send = DynamoDBDocumentClient.prototype.send;
DynamoDBDocumentClient.prototype.send = function (this: DynamoDBDocumentClient, ...args: unknown[]) {
  const command = args[0] as { constructor: { name: string }; input: { TableName?: string; UpdateExpression?: string } };
  if (
    crashAt &&
    command.constructor.name === crashAt[0] &&
    command.input.TableName?.endsWith(crashAt[1]!) &&
    (command.input.UpdateExpression ?? '').includes(crashAt[2] ?? '')
  ) {
    process.kill(process.pid, 'SIGKILL');
  }
  return (send as (...a: unknown[]) => unknown).apply(this, args);
} as typeof send;

const platform = await startPlatform({ dataDir: process.env.DATA_DIR!, now: () => new Date(Date.now() + shift), env: { MODEL: 'offline' } });
process.stdout.write(`READY ${platform.apiBaseUrl} ${platform.demo.agentId}\n`);
