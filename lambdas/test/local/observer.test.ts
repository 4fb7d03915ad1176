import { ROUTES } from '@service/shared';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Invocation, PlatformObserver } from '../../src/entries/local/observer';
import { usePlatform } from '../support/platform';

/** The local platform's observer hook (the cost bench's source of Lambda invocations and SQS messages). */
const seen = { invocations: [] as Invocation[], sends: [] as { queue: string; bytes: number }[] };
const observer: PlatformObserver = {
  invoked: (invocation) => seen.invocations.push(invocation),
  sent: (queue, bytes) => seen.sends.push({ queue, bytes }),
};
const ctx = usePlatform({ observer });

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('not observed in time');
    await sleep(20);
  }
}

describe('a platform started with an observer', () => {
  it('reports the HTTP function an API request invoked, the message it queued and the consumer invocation that took it', async () => {
    const body = { agent_id: ctx.agentId, instruction: 'Say hello' };
    const accepted = await ctx.api('agents/command', { body });
    expect(accepted.status).toBe(202);
    await until(() => seen.invocations.some((invocation) => invocation.trigger === 'queue' && invocation.queue === 'runs'));

    const http = seen.invocations.find((invocation) => invocation.trigger === 'http');
    expect(http).toMatchObject({ trigger: 'http', route: ROUTES.restApi, requestBytes: Buffer.byteLength(JSON.stringify(body)) });
    expect(http!.durationMs).toBeGreaterThan(0);
    const send = seen.sends.find((sent) => sent.queue === 'runs');
    expect(send?.bytes).toBeGreaterThan(0);
    const consumed = seen.invocations.find((invocation) => invocation.trigger === 'queue' && invocation.queue === 'runs');
    expect(consumed).toMatchObject({ messageBytes: [send!.bytes], failedMessages: 0 });
  });
});
